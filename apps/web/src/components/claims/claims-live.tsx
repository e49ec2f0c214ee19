"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EpisodeLeases } from "@/components/claims/episode-leases";
import { columnHelper } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterSelect } from "@/components/ui/filter-select";
import { LivePage, Tile } from "@/components/ui/live-list";
import { PagedTable } from "@/components/ui/paged-table";
import { usePageInput } from "@/components/ui/pager";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { TruncatedText } from "@/components/ui/truncated-text";
import { formatDuration } from "@/lib/format-duration";
import { oneOf, useEnvInput, useUrlState } from "@/lib/url-state";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useLiveListOptions } from "@/lib/live/use-live-list-options";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

type TClaim = TRouterOutputs["claims"]["list"]["items"][number];
const REFRESH_MS = 2_000;
const STATES = ["claimed", "done", "failed", "expired"] as const;
const column = columnHelper<TClaim>();

function lease(claim: TClaim) {
  if (claim.state !== "claimed") return <span className="text-subtle">—</span>;
  if (claim.leaseRemainingMs > 0) return `${formatDuration(claim.leaseRemainingMs)} left`;
  return <span className="inline-error">lapsed {formatDuration(-claim.leaseRemainingMs)} ago</span>;
}

const columns = column.columns([
  column.accessor("state", {
    header: "State",
    cell: (info) => (
      <StatusPill
        status={
          info.getValue() === "claimed" && info.row.original.leaseRemainingMs <= 0
            ? "lapsed"
            : info.getValue()
        }
      />
    ),
  }),
  column.accessor("dedupeKey", {
    header: "Dedupe key",
    meta: { className: "cell-fill" },
    cell: (info) => (
      <div>
        <TruncatedText value={info.getValue()} what="dedupe key" mono className="cell-truncate" />
        {info.row.original.episodeId ? (
          <div className="cell-secondary">
            <Link href={`/episodes/${info.row.original.episodeId}`}>episode</Link>
          </div>
        ) : null}
      </div>
    ),
  }),
  column.accessor("ownerNode", {
    header: "Owner",
    meta: { className: "cell-fill" },
    cell: (info) => <TruncatedText value={info.getValue()} what="owner node" mono />,
  }),
  column.display({
    id: "lease",
    header: "Lease",
    meta: { className: "num" },
    cell: (info) => lease(info.row.original),
  }),
  column.accessor("attempt", { header: "Attempt", meta: { className: "num" } }),
  column.accessor("steals", {
    header: "Steals",
    meta: { className: "num" },
    cell: (info) =>
      info.getValue() > 0 ? <span className="inline-error">{info.getValue()}</span> : 0,
  }),
  column.accessor("ageMs", {
    header: "Age",
    meta: { className: "num" },
    cell: (info) => formatDuration(info.getValue()),
  }),
  column.accessor("updatedAt", {
    header: "Changed",
    meta: { className: "num" },
    cell: (info) => <TimeAgo iso={info.getValue()} compact />,
  }),
  column.accessor("errorDetail", {
    header: "Detail",
    meta: { className: "cell-fill" },
    cell: (info) => {
      const detail = info.getValue();
      return detail ? (
        <TruncatedText value={detail} what="detail" lines={2} className="note cell-truncate" />
      ) : null;
    },
  }),
]);

export function ClaimsLive() {
  const trpc = useTRPC();
  const env = useEnvInput();
  const { get } = useUrlState();
  const stateParam = get("state");
  const lapsedOnly = stateParam === "lapsed";
  const state = oneOf(STATES, stateParam);
  const list = useQuery({
    ...trpc.claims.list.queryOptions({ env, state, lapsedOnly, ...usePageInput() }),
    ...useLiveListOptions(REFRESH_MS),
  });
  const summary = useQuery({
    ...trpc.claims.summary.queryOptions({ env }),
    refetchInterval: useRefetchInterval(REFRESH_MS),
  });
  return (
    <LivePage
      pageId="claims"
      query={list}
      refreshMs={REFRESH_MS}
      what="work claims"
      filters={
        <>
          <div className="tiles">
            <Tile
              label="Held"
              value={summary.data?.claimed ?? "…"}
              hint="claimed or an episode's own lease, running"
            />
            <Tile
              label="Lapsed"
              value={summary.data?.lapsed ?? "…"}
              hint="holder stopped renewing: stealable"
              alert={(summary.data?.lapsed ?? 0) > 0}
              testId="claims-lapsed"
            />
            <Tile
              label="Held after a steal"
              value={summary.data?.stolen ?? "…"}
              hint="steals in normal operation mean dying nodes or short leases"
              alert={(summary.data?.stolen ?? 0) > 0}
            />
          </div>
          <EpisodeLeases env={env} refreshMs={REFRESH_MS} />
          <div className="filter-bar">
            <FilterSelect
              label="State"
              param="state"
              options={[...STATES, { value: "lapsed", label: "claimed, lease lapsed" }]}
            />
          </div>
        </>
      }
    >
      {(data) => (
        <PagedTable
          list={data}
          noun={["claim", "claims"]}
          columns={columns}
          testId="claims-table"
          empty={
            <EmptyState icon="lock" title="No claims here" testId="claims-empty">
              A claim is taken when a node starts an episode or dispatches a trigger request, and
              kept as history after. Claims of this env appear here.
            </EmptyState>
          }
        />
      )}
    </LivePage>
  );
}
