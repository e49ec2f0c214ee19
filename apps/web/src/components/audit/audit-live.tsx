"use client";

import { useQuery } from "@tanstack/react-query";
import { columnHelper } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterSelect, FilterText } from "@/components/ui/filter-select";
import { LivePage } from "@/components/ui/live-list";
import { PagedTable } from "@/components/ui/paged-table";
import { usePageInput } from "@/components/ui/pager";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { TruncatedText } from "@/components/ui/truncated-text";
import { oneOf, useUrlState } from "@/lib/url-state";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useLiveListOptions } from "@/lib/live/use-live-list-options";

type TEntry = TRouterOutputs["auditLog"]["list"]["items"][number];
const REFRESH_MS = 3_000;
const OUTCOMES = ["ok", "refused", "error"] as const;
const column = columnHelper<TEntry>();

function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" · ");
}

const columns = column.columns([
  column.accessor("insertedAt", {
    header: "When",
    cell: (info) => <TimeAgo iso={info.getValue()} compact />,
  }),
  column.accessor("principal", {
    header: "Who",
    meta: { className: "cell-fill" },
    cell: (info) => <TruncatedText value={info.getValue()} what="principal" mono />,
  }),
  column.accessor("action", {
    header: "Action",
    cell: (info) => <span className="mono cell-primary">{info.getValue()}</span>,
  }),
  column.accessor("target", {
    header: "Target",
    meta: { className: "cell-fill" },
    cell: (info) => {
      const target = info.getValue();
      return target === null ? (
        "—"
      ) : (
        <TruncatedText value={target} what="target" mono className="cell-truncate" />
      );
    },
  }),
  column.accessor("outcome", {
    header: "Outcome",
    cell: (info) => <StatusPill status={info.getValue()} />,
  }),
  column.accessor("detail", {
    header: "Detail",
    meta: { className: "wrap" },
    cell: (info) => <span className="note mono">{detailText(info.getValue())}</span>,
  }),
  column.accessor("ip", {
    header: "IP",
    cell: (info) => <span className="mono note">{info.getValue() ?? "—"}</span>,
  }),
]);

export function AuditLive() {
  const trpc = useTRPC();
  const { get } = useUrlState();
  const list = useQuery({
    ...trpc.auditLog.list.queryOptions({
      action: get("action"),
      principal: get("principal"),
      outcome: oneOf(OUTCOMES, get("outcome")),
      target: get("target"),
      ...usePageInput(),
    }),
    ...useLiveListOptions(REFRESH_MS, { pushed: false }),
  });
  return (
    <LivePage
      pageId="audit"
      query={list}
      refreshMs={REFRESH_MS}
      what="the audit log"
      filters={
        <div className="filter-bar">
          <FilterText label="Action" param="action" placeholder="e.g. triggers. or modes.set" />
          <FilterText label="Who" param="principal" placeholder="user:alice@example.com" />
          <FilterText label="Target" param="target" placeholder="part of a target" />
          <FilterSelect label="Outcome" param="outcome" options={OUTCOMES} />
        </div>
      }
    >
      {(data) => (
        <PagedTable
          list={data}
          noun={["entry", "entries"]}
          columns={columns}
          testId="audit-table"
          dense
          empty={
            <EmptyState icon="pen" title="Nothing recorded" testId="audit-empty">
              Every state-changing call (fires, pauses, mode switches, sign-ins) and every refused
              one is written here, with who, what, on what and when.
            </EmptyState>
          }
        />
      )}
    </LivePage>
  );
}
