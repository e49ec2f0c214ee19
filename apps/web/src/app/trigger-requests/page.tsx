import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Trigger requests" };

export default function TriggerRequestsPage() {
  return <ComingSoon page="trigger-requests" />;
}
