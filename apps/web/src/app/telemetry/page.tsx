import type { Metadata } from "next";
import { connection } from "next/server";
import { TelemetryLive } from "@/components/telemetry/telemetry-live";

export const metadata: Metadata = { title: "Telemetry" };

export default async function TelemetryPage() {
  await connection();
  return <TelemetryLive />;
}
