import type { Metadata } from "next";
import { connection } from "next/server";
import { TriggerRequestsLive } from "@/components/trigger-requests/trigger-requests-live";

export const metadata: Metadata = { title: "Trigger requests" };

export default async function TriggerRequestsPage() {
  await connection();
  return <TriggerRequestsLive />;
}
