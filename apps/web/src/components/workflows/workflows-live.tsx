"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { columnHelper } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterSelect, FilterText } from "@/components/ui/filter-select";
import { LivePage } from "@/components/ui/live-list";
import { PagedTable } from "@/components/ui/paged-table";
import { usePageInput } from "@/components/ui/pager";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { oneOf, useEnvInput, useUrlState, withEnv } from "@/lib/url-state";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useLiveListOptions } from "@/lib/live/use-live-list-options";

type TInstance = TRouterOutputs["workflows"]["list"]["items"][number];
const REFRESH_MS = 2_000;
const STATUSES = ["running", "blocked", "done", "failed", "cancelled"] as const;
const column = columnHelper<TInstance>();

function columnsFor(envParam: string | null) {
  return column.columns([
    column.accessor("status", {
      header: "Status",
      cell: (info) => <StatusPill status={info.getValue()} />,
    }),
    column.accessor("workflowName", {
      header: "Workflow",
      cell: (info) => (
        <div>
          <Link
            className="mono cell-primary"
            href={withEnv(`/workflows/${info.row.original.id}`, envParam)}
          >
            {info.getValue()}
          </Link>
          <div className="cell-secondary mono">{info.row.original.id.slice(0, 8)}</div>
        </div>
      ),
    }),
    column.accessor("steps", {
      header: "Steps",
      cell: (info) => (
        <span className="mode-cell" style={{ flexWrap: "wrap" }}>
          {info.getValue().map((step) => (
            <StatusPill key={step.name} status={step.status} label={step.name} />
          ))}
        </span>
      ),
    }),
    column.accessor("triggerName", {
      header: "Started by",
      cell: (info) => <span className="mono note">{info.getValue() ?? "direct start"}</span>,
    }),
    column.accessor("insertedAt", {
      header: "Started",
      meta: { className: "num" },
      cell: (info) => <TimeAgo iso={info.getValue()} compact />,
    }),
    column.accessor("finishedAt", {
      header: "Finished",
      meta: { className: "num" },
      cell: (info) => <TimeAgo iso={info.getValue()} fallback="—" compact />,
    }),
  ]);
}

export function WorkflowsLive() {
  const trpc = useTRPC();
  const env = useEnvInput();
  const envParam = useSearchParams().get("env");
  const { get } = useUrlState();
  const list = useQuery({
    ...trpc.workflows.list.queryOptions({
      env,
      workflowName: get("workflow"),
      status: oneOf(STATUSES, get("status")),
      ...usePageInput(),
    }),
    ...useLiveListOptions(REFRESH_MS),
  });
  return (
    <LivePage
      pageId="workflows"
      query={list}
      refreshMs={REFRESH_MS}
      what="workflow instances"
      filters={
        <div className="filter-bar">
          <FilterText label="Workflow" param="workflow" placeholder="e.g. capacity_review" />
          <FilterSelect label="Status" param="status" options={STATUSES} />
        </div>
      }
    >
      {(data) => (
        <PagedTable
          list={data}
          noun={["instance", "instances"]}
          columns={columnsFor(envParam)}
          rowHref={(row) => withEnv(`/workflows/${row.id}`, envParam)}
          testId="workflows-table"
          empty={
            <EmptyState icon="flow" title="No workflow instances" testId="workflows-empty">
              An instance starts when a trigger fires its workflow (see Triggers) or code starts
              one; each step runs as an episode.
            </EmptyState>
          }
        />
      )}
    </LivePage>
  );
}
