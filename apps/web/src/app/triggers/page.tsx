import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Triggers" };

export default function TriggersPage() {
  return <ComingSoon page="triggers" />;
}
