import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { EpisodeDetail } from "@/components/episodes/episode-detail";
import { roleAtLeast } from "@/server/auth/principal";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { ZUuid } from "@/server/trpc/routers/shared.schema";

export const metadata: Metadata = { title: "Episode" };

export default async function EpisodePage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const { id } = await params;
  // Not a UUID names nothing: the 404 page, with a real 404 status.
  if (!ZUuid.safeParse(id).success) notFound();
  const principal = await getCurrentPrincipal();
  // Hiding the buttons is a courtesy; the procedures check the role themselves.
  const canOperate = principal !== null && roleAtLeast(principal.role, "operator");
  return <EpisodeDetail id={id} canOperate={canOperate} />;
}
