import type { Metadata } from "next";
import { connection } from "next/server";
import { PrunerSection } from "@/components/recovery/pruner-section";
import { RecoveryLive } from "@/components/recovery/recovery-live";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { roleAtLeast } from "@/server/auth/principal";

export const metadata: Metadata = { title: "Recovery" };

export default async function RecoveryPage() {
  await connection();
  const principal = await getCurrentPrincipal();
  const canOperate = principal !== null && roleAtLeast(principal.role, "operator");
  return (
    <>
      <RecoveryLive canOperate={canOperate} />
      <PrunerSection canOperate={canOperate} />
    </>
  );
}
