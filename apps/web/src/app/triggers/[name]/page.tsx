import type { Metadata } from "next";
import { connection } from "next/server";
import { TriggerDetail } from "@/components/triggers/trigger-detail";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { roleAtLeast } from "@/server/auth/principal";

export const metadata: Metadata = { title: "Trigger" };

export default async function TriggerPage({
  params,
  searchParams,
}: {
  params: Promise<{ name: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection();
  const { name } = await params;
  const principal = await getCurrentPrincipal();
  const env = (await searchParams).env;
  return (
    <TriggerDetail
      name={decodeURIComponent(name)}
      canOperate={principal !== null && roleAtLeast(principal.role, "operator")}
      envParam={typeof env === "string" ? env : null}
    />
  );
}
