import type { Metadata } from "next";
import { connection } from "next/server";
import { OverviewLive } from "@/components/overview/overview-live";
import { envInputFromParam } from "@/lib/env-param";
import { getQueryClient, HydrateClient, trpc } from "@/server/trpc/rsc";

const stringParam = (value: string | string[] | undefined) =>
  typeof value === "string" ? value : null;

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // Live data: never prerender at build time, always read the database per request.
  await connection();
  // Awaited so the first HTML already carries the numbers; the client then polls. A failed
  // read is not thrown here: the client component shows it and keeps retrying.
  const env = envInputFromParam(stringParam((await searchParams).env));
  await getQueryClient().prefetchQuery(
    trpc.overview.stats.queryOptions(env === undefined ? undefined : { env }),
  );
  return (
    <HydrateClient>
      <OverviewLive />
    </HydrateClient>
  );
}
