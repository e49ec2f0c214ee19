import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Audit log" };

export default function AuditPage() {
  return <ComingSoon page="audit" />;
}
