import type { Metadata } from "next";
import { connection } from "next/server";
import { ActorsLive } from "@/components/actors/actors-live";
import { DynamicActorsSection } from "@/components/actors/dynamic/dynamic-actors-section";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { roleAtLeast } from "@/server/auth/principal";
import { getNodeInfo } from "@/server/node-info";

export const metadata: Metadata = { title: "Actors & modes" };

export default async function ActorsPage() {
  await connection();
  const principal = await getCurrentPrincipal();
  // Hiding controls is a courtesy to viewers; every procedure checks the role itself.
  const canOperate = principal !== null && roleAtLeast(principal.role, "operator");
  const canAdmin = principal?.role === "admin";
  return (
    <>
      <ActorsLive canOperate={canOperate} consoleEnv={getNodeInfo().env} />
      <DynamicActorsSection canAdmin={canAdmin} />
    </>
  );
}
