"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { columnHelper, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LivePage } from "@/components/ui/live-list";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { TruncatedText } from "@/components/ui/truncated-text";
import { formatDuration } from "@/lib/format-duration";
import { useEnvInput, withEnv } from "@/lib/url-state";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { TriggerActions } from "./trigger-actions";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

type TTrigger = TRouterOutputs["triggers"]["list"]["items"][number];
const REFRESH_MS = 3_000;
const column = columnHelper<TTrigger>();

export function ruleOf(
  trigger: Pick<TTrigger, "kind" | "cron" | "timezone" | "poll_interval_ms">,
): string {
  switch (trigger.kind) {
    case "cron":
      return `${trigger.cron ?? "?"} (${trigger.timezone ?? "UTC"})`;
    // An interval fires every window of its grid; a poll only checks its condition that often.
    case "interval":
      return `every ${formatDuration(trigger.poll_interval_ms ?? 0)}`;
    case "poll":
      return `poll every ${formatDuration(trigger.poll_interval_ms ?? 0)}`;
    default: {
      // Exhaustive without importing core into the browser bundle: a new kind fails typecheck.
      const unexpected: never = trigger.kind;
      return String(unexpected);
    }
  }
}

function columnsFor(envParam: string | null, canOperate: boolean) {
  return column.columns([
    column.accessor("name", {
      header: "Trigger",
      cell: (info) => (
        <Link
          className="mono cell-primary"
          href={withEnv(`/triggers/${encodeURIComponent(info.getValue())}`, envParam)}
        >
          {info.getValue()}
        </Link>
      ),
    }),
    column.accessor("kind", {
      header: "Kind",
      cell: (info) => <span className="pill">{info.getValue()}</span>,
    }),
    column.display({
      id: "rule",
      header: "Rule",
      cell: (info) => <span className="mono note">{ruleOf(info.row.original)}</span>,
    }),
    column.accessor("workflow", {
      header: "Workflows",
      meta: { className: "cell-fill" },
      cell: (info) => {
        const subscribers = info.row.original.subscribers ?? [info.getValue()];
        return (
          <TruncatedText
            value={subscribers.join(", ")}
            what="workflows"
            hint="Primary first; the others subscribe to the trigger"
            mono
            className="note"
          />
        );
      },
    }),
    column.accessor("paused", {
      header: "State",
      cell: (info) =>
        info.getValue() ? (
          <span
            title={
              info.row.original.paused_by ? `Paused by ${info.row.original.paused_by}` : undefined
            }
          >
            <StatusPill status="paused" />
          </span>
        ) : (
          <StatusPill status="ok" label="active" />
        ),
    }),
    column.accessor("next_fire_at", {
      header: "Next fire",
      meta: { className: "num" },
      cell: (info) =>
        info.row.original.paused ? (
          <span className="text-subtle">paused</span>
        ) : (
          <TimeAgo iso={info.getValue()} compact />
        ),
    }),
    column.accessor("last_fire_at", {
      header: "Last fire",
      meta: { className: "num" },
      cell: (info) => <TimeAgo iso={info.getValue()} fallback="never" compact />,
    }),
    ...(canOperate
      ? [
          column.display({
            id: "actions",
            header: "Actions",
            cell: (info) => (
              <TriggerActions name={info.row.original.name} paused={info.row.original.paused} />
            ),
          }),
        ]
      : []),
  ]);
}

export function TriggersLive({
  canOperate,
  envParam,
}: {
  canOperate: boolean;
  envParam: string | null;
}) {
  const trpc = useTRPC();
  const env = useEnvInput();
  const list = useQuery({
    ...trpc.triggers.list.queryOptions({ env }),
    refetchInterval: useRefetchInterval(REFRESH_MS),
  });
  return (
    <LivePage pageId="triggers" query={list} refreshMs={REFRESH_MS} what="triggers">
      {(data) => (
        <DataTable
          columns={columnsFor(envParam, canOperate)}
          data={data.items}
          rowId={(row) => row.name}
          rowHref={(row) => withEnv(`/triggers/${encodeURIComponent(row.name)}`, envParam)}
          testId="triggers-table"
          empty={
            <EmptyState icon="bolt" title="No triggers in this env" testId="triggers-empty">
              Triggers are declared in code (cron or poll) and registered by the nodes that run
              them; each appears here once a node of this env has started.
            </EmptyState>
          }
        />
      )}
    </LivePage>
  );
}
