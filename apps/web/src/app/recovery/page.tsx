import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Recovery" };

export default function RecoveryPage() {
  return <ComingSoon page="recovery" />;
}
