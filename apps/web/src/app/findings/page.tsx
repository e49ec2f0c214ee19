import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Findings" };

export default function FindingsPage() {
  return <ComingSoon page="findings" />;
}
