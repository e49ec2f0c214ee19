import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Telemetry" };

export default function TelemetryPage() {
  return <ComingSoon page="telemetry" />;
}
