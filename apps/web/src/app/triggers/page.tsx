import type { Metadata } from "next";
import { connection } from "next/server";
import { TriggersLive } from "@/components/triggers/triggers-live";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { roleAtLeast } from "@/server/auth/principal";

export const metadata: Metadata = { title: "Triggers" };

export default async function TriggersPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection();
  const principal = await getCurrentPrincipal();
  const env = (await searchParams).env;
  return (
    <TriggersLive
      canOperate={principal !== null && roleAtLeast(principal.role, "operator")}
      envParam={typeof env === "string" ? env : null}
    />
  );
}
