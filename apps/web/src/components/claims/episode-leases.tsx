"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { columnHelper, DataTable } from "@/components/ui/data-table";
import { TruncatedText } from "@/components/ui/truncated-text";
import { formatDuration } from "@/lib/format-duration";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";

type TLease = TRouterOutputs["claims"]["episodeLeases"][number];
const column = columnHelper<TLease>();

const columns = column.columns([
  column.accessor("claimKey", {
    header: "Key",
    meta: { className: "cell-fill" },
    cell: (info) => (
      <div>
        <TruncatedText value={info.getValue()} what="claim key" mono className="cell-truncate" />
        <div className="cell-secondary">
          <Link href={`/episodes/${info.row.original.episodeId}`}>
            {info.row.original.actorId} · {info.row.original.expectationId}
          </Link>
        </div>
      </div>
    ),
  }),
  column.accessor("ownerNode", {
    header: "Owner",
    meta: { className: "cell-fill" },
    cell: (info) => <TruncatedText value={info.getValue()} what="owner node" mono />,
  }),
  column.accessor("leaseRemainingMs", {
    header: "Lease",
    meta: { className: "num" },
    cell: (info) =>
      info.getValue() > 0 ? (
        `${formatDuration(info.getValue())} left`
      ) : (
        <span className="inline-error">lapsed {formatDuration(-info.getValue())} ago</span>
      ),
  }),
  column.accessor("attempt", { header: "Attempt", meta: { className: "num" } }),
]);

/**
 * Episodes holding their own lease (SPEC section 4) instead of a claim row: shown beside the
 * claim rows, with the same lease and attempt, and only when there are any.
 */
export function EpisodeLeases({
  env,
  refreshMs,
}: {
  env: string | null | undefined;
  refreshMs: number;
}) {
  const trpc = useTRPC();
  const leases = useQuery({
    ...trpc.claims.episodeLeases.queryOptions({ env }),
    refetchInterval: useRefetchInterval(refreshMs),
  });
  const items = leases.data ?? [];
  if (items.length === 0) return null;
  return (
    <section className="section" aria-labelledby="episode-leases-heading">
      <div className="section-header">
        <h2 id="episode-leases-heading" className="section-title">
          Episode leases
        </h2>
        <span className="section-meta">
          running episodes holding their lease in their own row, lapsed first
        </span>
      </div>
      <DataTable
        columns={columns}
        data={items}
        rowId={(row) => row.episodeId}
        testId="episode-leases-table"
        empty={null}
      />
    </section>
  );
}
