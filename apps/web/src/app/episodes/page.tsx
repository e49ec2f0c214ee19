import type { Metadata } from "next";
import { connection } from "next/server";
import { EpisodesLive } from "@/components/episodes/episodes-live";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { roleAtLeast } from "@/server/auth/principal";

export const metadata: Metadata = { title: "Episodes" };

export default async function EpisodesPage() {
  // Live data: always per request. The list is read by the browser (filters and the page
  // cursor live in the URL) and refreshed every 2 s.
  await connection();
  const principal = await getCurrentPrincipal();
  // Hiding the bulk actions is a courtesy to viewers; every procedure checks the role itself.
  const canOperate = principal !== null && roleAtLeast(principal.role, "operator");
  return <EpisodesLive canOperate={canOperate} />;
}
