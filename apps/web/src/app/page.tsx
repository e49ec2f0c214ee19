import type { Metadata } from "next";
import { connection } from "next/server";
import { OverviewLive } from "@/components/overview/overview-live";
import { getQueryClient, HydrateClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  // Live data: never prerender at build time, always read the database per request.
  await connection();
  // Awaited so the first HTML already carries the numbers; the client then polls. A failed
  // read is not thrown here: the client component shows it and keeps retrying.
  await getQueryClient().prefetchQuery(trpc.overview.stats.queryOptions());
  return (
    <HydrateClient>
      <OverviewLive />
    </HydrateClient>
  );
}
