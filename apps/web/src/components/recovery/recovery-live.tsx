"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { columnHelper, DataTable } from "@/components/ui/data-table";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { EmptyState } from "@/components/ui/empty-state";
import { LivePage, Tile } from "@/components/ui/live-list";
import { SectionHeader } from "@/components/ui/query-state";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { TruncatedText } from "@/components/ui/truncated-text";
import { mutationErrorMessage } from "@/lib/error-message";
import { formatCount } from "@/lib/format-count";
import { useEnvInput } from "@/lib/url-state";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

type TOverview = TRouterOutputs["recovery"]["overview"];
type TSweep = TOverview["sweeps"][number];
type TNodeActivity = TOverview["nodes"][number];
const REFRESH_MS = 5_000;
const sweepColumn = columnHelper<TSweep>();
const nodeColumn = columnHelper<TNodeActivity>();

const sweepColumns = sweepColumn.columns([
  sweepColumn.accessor("insertedAt", {
    header: "When",
    cell: (info) => <TimeAgo iso={info.getValue()} compact />,
  }),
  sweepColumn.accessor("trigger", {
    header: "Started",
    cell: (info) => (
      <StatusPill status={info.getValue() === "manual" ? "info" : "full"} label={info.getValue()} />
    ),
  }),
  sweepColumn.accessor("requestedBy", {
    header: "By",
    meta: { className: "cell-fill" },
    cell: (info) => (
      <TruncatedText value={info.getValue() ?? info.row.original.node} what="who ran it" mono />
    ),
  }),
  sweepColumn.accessor("found", { header: "Found", meta: { className: "num" } }),
  sweepColumn.accessor("claimed", { header: "Claimed", meta: { className: "num" } }),
  sweepColumn.accessor("restarted", { header: "Restarted", meta: { className: "num" } }),
  sweepColumn.accessor("failed", { header: "Failed", meta: { className: "num" } }),
  sweepColumn.accessor("skipped", { header: "Skipped", meta: { className: "num" } }),
  sweepColumn.accessor("reconciled", {
    header: "Workflow steps replayed",
    meta: { className: "num" },
  }),
  sweepColumn.accessor("durationMs", {
    header: "Took",
    meta: { className: "num" },
    cell: (info) => `${formatCount(Math.round(info.getValue()))} ms`,
  }),
]);

const nodeColumns = nodeColumn.columns([
  nodeColumn.accessor("node", {
    header: "Node",
    cell: (info) => <span className="mono">{info.getValue()}</span>,
  }),
  nodeColumn.accessor("sweeps", { header: "Sweeps in 24 h", meta: { className: "num" } }),
  nodeColumn.accessor("lastSweepAt", {
    header: "Last sweep (minute)",
    meta: { className: "num" },
    cell: (info) => <TimeAgo iso={info.getValue()} fallback="never" compact />,
  }),
]);

function SweepNow({ env }: { env: string | null | undefined }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sweep = useMutation(
    trpc.recovery.sweep.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.recovery.pathKey() }),
    }),
  );
  return (
    <span className="mode-cell">
      {sweep.isError ? (
        <span className="inline-error">{mutationErrorMessage(sweep.error)}</span>
      ) : null}
      {sweep.data && !sweep.isPending ? (
        <span className="inline-ok" data-testid="sweep-result">
          Found {sweep.data.found}, restarted {sweep.data.restarted}, failed {sweep.data.failed}
        </span>
      ) : null}
      <ConfirmButton
        label="Run a sweep now"
        confirmLabel="Sweep this env now?"
        pendingLabel="Sweeping…"
        tone="primary"
        testId="recovery-sweep"
        pending={sweep.isPending}
        onConfirm={() => sweep.mutate({ env })}
      />
    </span>
  );
}

export function RecoveryLive({ canOperate }: { canOperate: boolean }) {
  const trpc = useTRPC();
  const env = useEnvInput();
  const overview = useQuery({
    ...trpc.recovery.overview.queryOptions({ env }),
    refetchInterval: useRefetchInterval(REFRESH_MS),
  });
  return (
    <LivePage
      pageId="recovery"
      query={overview}
      refreshMs={REFRESH_MS}
      what="recovery"
      actions={canOperate ? <SweepNow env={env} /> : null}
    >
      {(data) => (
        <>
          <div className="tiles">
            <Tile
              label="Silent running episodes"
              value={data.staleRunning}
              hint="running, no journal entry for 120 s: the next sweep's candidates"
              alert={data.staleRunning > 0}
              testId="recovery-stale"
            />
            <Tile
              label="Nodes sweeping"
              value={data.nodes.length}
              hint="full-mode nodes with sweeps in 24 h"
            />
          </div>
          <section className="section">
            <SectionHeader
              title="Past sweeps"
              meta="Restarted episodes are handed to workers as trigger requests"
            />
            <DataTable
              columns={sweepColumns}
              data={data.sweeps}
              rowId={(row) => row.id}
              testId="sweeps-table"
              empty={
                <EmptyState
                  icon="rotate"
                  title="No recorded sweep in this env"
                  testId="sweeps-empty"
                >
                  Sweeps started from here are recorded with their counts. Workers sweep on their
                  own timer (CYCLIUM_RECOVERY_INTERVAL_MS); their activity is below.
                </EmptyState>
              }
            />
          </section>
          <section className="section">
            <SectionHeader
              title="Automatic sweeps per node"
              meta="From each node's telemetry rollups"
            />
            <DataTable
              columns={nodeColumns}
              data={data.nodes}
              rowId={(row) => row.node}
              empty={
                <EmptyState icon="unplugged" title="No automatic sweep in 24 hours">
                  Full-mode workers sweep {"after CYCLIUM_RECOVERY_DELAY_MS"} and then every
                  CYCLIUM_RECOVERY_INTERVAL_MS. None has reported a sweep.
                </EmptyState>
              }
            />
          </section>
        </>
      )}
    </LivePage>
  );
}
