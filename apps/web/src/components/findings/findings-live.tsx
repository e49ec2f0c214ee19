"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { columnHelper } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterSelect, FilterText } from "@/components/ui/filter-select";
import { LivePage } from "@/components/ui/live-list";
import { PagedTable } from "@/components/ui/paged-table";
import { usePageInput } from "@/components/ui/pager";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { TruncatedText } from "@/components/ui/truncated-text";
import { useEnvInput, useUrlState } from "@/lib/url-state";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useLiveListOptions } from "@/lib/live/use-live-list-options";

type TFinding = TRouterOutputs["findings"]["list"]["items"][number];
const REFRESH_MS = 3_000;
const column = columnHelper<TFinding>();

const columns = column.columns([
  column.accessor("severity", {
    header: "Severity",
    cell: (info) => (
      <StatusPill
        status={info.row.original.status === "cleared" ? "cleared" : info.getValue()}
        label={info.getValue()}
      />
    ),
  }),
  column.accessor("findingKey", {
    header: "Finding",
    meta: { className: "wrap" },
    cell: (info) => (
      <div>
        <div className="cell-primary">{info.row.original.summary ?? info.row.original.class}</div>
        <div className="cell-secondary mono">{info.getValue()}</div>
      </div>
    ),
  }),
  column.accessor("class", {
    header: "Class",
    meta: { className: "cell-fill" },
    cell: (info) => <TruncatedText value={info.getValue()} what="class" mono />,
  }),
  column.accessor("subject", {
    header: "Subject",
    meta: { className: "cell-fill" },
    cell: (info) => {
      const subject = info.getValue();
      return subject === null ? "—" : <TruncatedText value={subject} what="subject" mono />;
    },
  }),
  column.accessor("raisedCount", {
    header: "Raised",
    meta: { className: "num" },
    cell: (info) => `${info.getValue()}×`,
  }),
  column.accessor("episodeId", {
    header: "Last episode",
    cell: (info) => {
      const id = info.getValue();
      return id ? (
        <Link href={`/episodes/${id}`} className="mono">
          {id.slice(0, 8)}
        </Link>
      ) : (
        "—"
      );
    },
  }),
  column.accessor("updatedAt", {
    header: "Updated",
    meta: { className: "num" },
    cell: (info) => <TimeAgo iso={info.getValue()} compact />,
  }),
  column.accessor("expiresAt", {
    header: "Expires",
    meta: { className: "num" },
    cell: (info) => <TimeAgo iso={info.getValue()} fallback="never" compact />,
  }),
]);

export function FindingsLive() {
  const trpc = useTRPC();
  const env = useEnvInput();
  const { get } = useUrlState();
  const status = get("status") === "cleared" ? "cleared" : "active";
  const list = useQuery({
    ...trpc.findings.list.queryOptions({
      env,
      status,
      class: get("class"),
      severity: get("severity"),
      ...usePageInput(),
    }),
    ...useLiveListOptions(REFRESH_MS),
  });
  return (
    <LivePage
      pageId="findings"
      query={list}
      refreshMs={REFRESH_MS}
      what="findings"
      filters={
        <div className="filter-bar">
          <FilterSelect
            label="Status"
            param="status"
            allLabel="Active"
            options={[{ value: "cleared", label: "Cleared (history)" }]}
          />
          <FilterSelect
            label="Severity"
            param="severity"
            options={["critical", "warning", "info"]}
          />
          <FilterText label="Class" param="class" placeholder="e.g. limit_breach" />
        </div>
      }
    >
      {(data) => (
        <PagedTable
          list={data}
          noun={["finding", "findings"]}
          columns={columns}
          testId="findings-table"
          empty={
            <EmptyState
              icon="flag"
              title={status === "active" ? "No active findings" : "No cleared findings"}
              testId="findings-empty"
            >
              {status === "active"
                ? "Nothing raised in this env is open. Episodes raise findings (a limit breach, say); clearing one keeps it as history."
                : "Cleared findings stay here as history of what was raised and resolved."}
            </EmptyState>
          }
        />
      )}
    </LivePage>
  );
}
