"use client";

import Link from "next/link";
import { columnHelper, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { TruncatedText } from "@/components/ui/truncated-text";
import { formatDuration } from "@/lib/format-duration";
import type { TRouterOutputs } from "@/trpc/router-types";
import { withEnvParam } from "./episode-links";
import { useWaitReasons, WaitBadge, type TWaitReason } from "./wait-reason";

type TEpisodeListItem = TRouterOutputs["episodes"]["list"]["items"][number];

const column = columnHelper<TEpisodeListItem>();

function runTime(episode: TEpisodeListItem): string {
  if (episode.startedAt === null) return "—";
  if (episode.finishedAt === null) return "running";
  return formatDuration(Date.parse(episode.finishedAt) - Date.parse(episode.startedAt));
}

export function episodeColumns(
  envParam: string | null,
  waitReasons: Readonly<Record<string, TWaitReason>> = {},
) {
  return column.columns([
    column.accessor("status", {
      header: "Status",
      cell: (info) => {
        const reason = waitReasons[info.row.original.id];
        // Wraps under the pill when the table is short of room (1,280 px screens).
        return (
          <span className="mode-cell" style={{ flexWrap: "wrap" }}>
            <StatusPill status={info.getValue()} />
            {info.row.original.phase ? (
              <span className="note">{info.row.original.phase}</span>
            ) : null}
            {info.getValue() === "pending" && reason ? <WaitBadge reason={reason} /> : null}
          </span>
        );
      },
    }),
    column.accessor("actorId", {
      header: "Actor / expectation",
      meta: { className: "cell-fill" },
      cell: (info) => (
        <div>
          <Link
            className="cell-primary mono"
            href={withEnvParam(`/episodes/${info.row.original.id}`, envParam)}
          >
            {info.getValue()}
          </Link>
          <div className="cell-secondary">
            <TruncatedText value={info.row.original.expectationId} what="expectation" mono />
          </div>
        </div>
      ),
    }),
    column.accessor("triggerType", {
      header: "Trigger",
      cell: (info) => <span className="pill">{info.getValue()}</span>,
    }),
    column.accessor("attempt", {
      header: "Attempt",
      meta: { className: "num" },
      cell: (info) => info.getValue(),
    }),
    column.accessor("executedBy", {
      header: "Node",
      meta: { className: "cell-fill" },
      cell: (info) => {
        const node = info.getValue() ?? info.row.original.sourceNode;
        return node === null ? (
          "—"
        ) : (
          <TruncatedText value={node} what="node" mono className="cell-truncate" />
        );
      },
    }),
    column.accessor("sourceStack", {
      header: "Stack",
      cell: (info) => info.getValue() ?? <span className="text-subtle">—</span>,
    }),
    column.accessor("errorClass", {
      header: "Error",
      cell: (info) =>
        info.getValue() ? (
          <span className="mono inline-error">{info.getValue()}</span>
        ) : (
          <span className="text-subtle">—</span>
        ),
    }),
    column.accessor("insertedAt", {
      header: "Inserted",
      meta: { className: "num" },
      cell: (info) => <TimeAgo iso={info.getValue()} compact />,
    }),
    column.display({
      id: "runtime",
      header: "Run time",
      meta: { className: "num" },
      cell: (info) => runTime(info.row.original),
    }),
  ]);
}

export function EpisodesTable({
  items,
  envParam,
  filtered,
}: {
  items: TEpisodeListItem[];
  envParam: string | null;
  filtered: boolean;
}) {
  // Why the page's pending episodes wait: one request for the page, not one per row.
  const waitReasons = useWaitReasons(
    items.filter((item) => item.status === "pending").map((item) => item.id),
  );
  return (
    <DataTable
      columns={episodeColumns(envParam, waitReasons)}
      data={items}
      rowId={(row) => row.id}
      rowHref={(row) => withEnvParam(`/episodes/${row.id}`, envParam)}
      testId="episodes-table"
      empty={
        <EmptyState
          icon="pulse"
          title={filtered ? "No episode matches" : "No episodes yet"}
          testId="episodes-empty"
        >
          {filtered
            ? "Nothing in this env matches these filters. Widen the time range or clear a filter."
            : "Episodes appear here as soon as an expectation fires: on an event, a schedule, a poll, or a manual fire from Actors & modes."}
        </EmptyState>
      }
    />
  );
}
