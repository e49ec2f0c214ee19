"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { columnHelper } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterSelect } from "@/components/ui/filter-select";
import { LivePage, Tile } from "@/components/ui/live-list";
import { PagedTable } from "@/components/ui/paged-table";
import { usePageInput } from "@/components/ui/pager";
import { StatusPill } from "@/components/ui/status-pill";
import { TruncatedText } from "@/components/ui/truncated-text";
import { formatDuration } from "@/lib/format-duration";
import { oneOf, useEnvInput, useUrlState } from "@/lib/url-state";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useLiveListOptions } from "@/lib/live/use-live-list-options";
import { WaitBadge } from "@/components/episodes/wait-reason";

type TRequest = TRouterOutputs["triggerRequests"]["list"]["items"][number];
const REFRESH_MS = 2_000;
const STATUSES = ["pending", "claimed", "completed", "expired"] as const;
const column = columnHelper<TRequest>();

function nodeCell(node: string | null, what: string) {
  return node === null ? "—" : <TruncatedText value={node} what={what} mono />;
}

const columns = column.columns([
  column.accessor("id", {
    header: "Request",
    cell: (info) => <span className="mono">#{info.getValue()}</span>,
  }),
  column.accessor("status", {
    header: "Status",
    cell: (info) => <StatusPill status={info.getValue()} />,
  }),
  column.accessor("actorId", {
    header: "Actor / expectation",
    cell: (info) => (
      <div>
        <Link className="mono cell-primary" href={`/episodes/${info.row.original.episodeId}`}>
          {info.getValue()}
        </Link>
        <div className="cell-secondary mono">{info.row.original.expectationId}</div>
      </div>
    ),
  }),
  column.accessor("ageMs", {
    header: "Age",
    meta: { className: "num" },
    cell: (info) => formatDuration(info.getValue()),
  }),
  column.accessor("sourceNode", {
    header: "Written by",
    meta: { className: "cell-fill" },
    cell: (info) => nodeCell(info.getValue(), "writing node"),
  }),
  column.accessor("claimedBy", {
    header: "Claimed by",
    meta: { className: "cell-fill" },
    cell: (info) => nodeCell(info.getValue(), "claiming node"),
  }),
  column.display({
    id: "why",
    header: "Why it waits",
    meta: { className: "wrap" },
    cell: (info) => {
      const reason = info.row.original.pendingReason;
      if (reason === null) {
        return info.row.original.episodeStatus ? (
          <span className="note">episode {info.row.original.episodeStatus}</span>
        ) : null;
      }
      return (
        <span className="mode-cell">
          <WaitBadge reason={reason} />
          <span className="pending-reason" data-code={reason.code} data-testid="pending-reason">
            {reason.message}
          </span>
        </span>
      );
    },
  }),
]);

export function TriggerRequestsLive() {
  const trpc = useTRPC();
  const env = useEnvInput();
  const { get } = useUrlState();
  const status = oneOf(STATUSES, get("status"));
  const list = useQuery({
    ...trpc.triggerRequests.list.queryOptions({
      env,
      status,
      actorId: get("actor"),
      ...usePageInput(),
    }),
    ...useLiveListOptions(REFRESH_MS),
  });
  return (
    <LivePage
      pageId="trigger-requests"
      query={list}
      refreshMs={REFRESH_MS}
      what="trigger requests"
      filters={
        <>
          <div className="tiles">
            <Tile
              label="Pending"
              value={list.data?.pending ?? "…"}
              hint="waiting for a full-mode worker"
              testId="requests-pending"
            />
            <Tile label="Claimed" value={list.data?.claimed ?? "…"} hint="dispatched, running" />
          </div>
          <div className="filter-bar">
            <FilterSelect label="Status" param="status" options={STATUSES} />
          </div>
        </>
      }
    >
      {(data) => (
        <PagedTable
          list={data}
          noun={["request", "requests"]}
          columns={columns}
          testId="trigger-requests-table"
          empty={
            <EmptyState icon="swap" title="No trigger requests" testId="requests-empty">
              Trigger-only nodes (like this console) write a request for every episode they create;
              a full-mode worker claims and runs it. None match here.
            </EmptyState>
          }
        />
      )}
    </LivePage>
  );
}
