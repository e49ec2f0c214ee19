import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Workflows" };

export default function WorkflowsPage() {
  return <ComingSoon page="workflows" />;
}
