import type { Metadata } from "next";
import { connection } from "next/server";
import { RecoveryLive } from "@/components/recovery/recovery-live";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { roleAtLeast } from "@/server/auth/principal";

export const metadata: Metadata = { title: "Recovery" };

export default async function RecoveryPage() {
  await connection();
  const principal = await getCurrentPrincipal();
  return (
    <RecoveryLive canOperate={principal !== null && roleAtLeast(principal.role, "operator")} />
  );
}
