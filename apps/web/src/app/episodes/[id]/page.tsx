import type { Metadata } from "next";
import { connection } from "next/server";
import { EpisodeDetail } from "@/components/episodes/episode-detail";
import { EmptyState } from "@/components/ui/empty-state";
import { roleAtLeast } from "@/server/auth/principal";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { ZUuid } from "@/server/trpc/routers/shared.schema";

export const metadata: Metadata = { title: "Episode" };

export default async function EpisodePage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const { id } = await params;
  if (!ZUuid.safeParse(id).success) {
    return (
      <EmptyState icon="?" title="Not an episode id" testId="episode-missing">
        <code>{id}</code> is not an episode id (a UUID).
      </EmptyState>
    );
  }
  const principal = await getCurrentPrincipal();
  // Hiding the buttons is a courtesy; the procedures check the role themselves.
  const canOperate = principal !== null && roleAtLeast(principal.role, "operator");
  return <EpisodeDetail id={id} canOperate={canOperate} />;
}
