import type { Metadata } from "next";
import { connection } from "next/server";
import { AuditLive } from "@/components/audit/audit-live";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  await connection();
  return <AuditLive />;
}
