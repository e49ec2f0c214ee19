import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Work claims" };

export default function ClaimsPage() {
  return <ComingSoon page="claims" />;
}
