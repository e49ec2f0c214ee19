"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { columnHelper, DataTable } from "@/components/ui/data-table";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { SectionHeader } from "@/components/ui/query-state";
import { TimeAgo } from "@/components/ui/time-ago";
import { TruncatedText } from "@/components/ui/truncated-text";
import { mutationErrorMessage } from "@/lib/error-message";
import { formatCount } from "@/lib/format-count";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

type TOverview = TRouterOutputs["pruner"]["overview"];
type TRun = TOverview["runs"][number];
type TLine = TOverview["policy"][number];
const REFRESH_MS = 10_000;
const runColumn = columnHelper<TRun>();
const lineColumn = columnHelper<TLine>();

const lineColumns = lineColumn.columns([
  lineColumn.accessor("family", { header: "Kept" }),
  lineColumn.accessor("age", { header: "For", meta: { className: "num" } }),
  lineColumn.accessor("what", { header: "What", meta: { className: "wrap" } }),
  lineColumn.accessor("variable", {
    header: "Set by",
    cell: (info) => <span className="mono">{info.getValue()}</span>,
  }),
]);

const runColumns = runColumn.columns([
  runColumn.accessor("insertedAt", {
    header: "When",
    cell: (info) => <TimeAgo iso={info.getValue()} compact />,
  }),
  runColumn.accessor("trigger", { header: "Started" }),
  runColumn.accessor("requestedBy", {
    header: "By",
    meta: { className: "cell-fill" },
    cell: (info) => (
      <TruncatedText value={info.getValue() ?? info.row.original.node} what="who ran it" mono />
    ),
  }),
  runColumn.accessor("status", { header: "Status" }),
  runColumn.accessor((row) => row.deleted.episodes, {
    id: "episodes",
    header: "Episodes",
    meta: { className: "num" },
  }),
  runColumn.accessor("totalDeleted", {
    header: "Rows removed",
    meta: { className: "num" },
    cell: (info) => formatCount(info.getValue()),
  }),
  runColumn.accessor("durationMs", {
    header: "Took",
    meta: { className: "num" },
    cell: (info) => `${formatCount(Math.round(info.getValue()))} ms`,
  }),
]);

function PruneNow() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const prune = useMutation(
    trpc.pruner.run.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.pruner.pathKey() }),
    }),
  );
  return (
    <span className="mode-cell">
      {prune.isError ? (
        <span className="inline-error">{mutationErrorMessage(prune.error)}</span>
      ) : null}
      {prune.data && !prune.isPending ? (
        <span className="inline-ok" data-testid="prune-result">
          {prune.data.kind === "busy"
            ? "A worker is pruning right now"
            : `Removed ${formatCount(prune.data.run.totalDeleted)} rows`}
        </span>
      ) : null}
      <ConfirmButton
        label="Prune now"
        confirmLabel="Delete history past its retention now?"
        pendingLabel="Pruning…"
        tone="primary"
        testId="prune-now"
        pending={prune.isPending}
        onConfirm={() => prune.mutate({})}
      />
    </span>
  );
}

/** Retention in force and the last pruner runs (SPEC section 14, docs/retention.md). */
export function PrunerSection({ canOperate }: { canOperate: boolean }) {
  const trpc = useTRPC();
  const overview = useQuery({
    ...trpc.pruner.overview.queryOptions({}),
    refetchInterval: useRefetchInterval(REFRESH_MS, { pushed: false }),
  });
  if (!overview.data) return null;
  return (
    <>
      <section className="section" data-testid="retention-section">
        <SectionHeader
          title="Retention in force"
          meta="Finished history past these ages is pruned by the workers, once per cluster at a time"
          actions={canOperate ? <PruneNow /> : null}
        />
        <DataTable
          columns={lineColumns}
          data={overview.data.policy}
          rowId={(row) => row.family}
          testId="retention-table"
          empty={<p className="muted">No retention policy.</p>}
        />
      </section>
      <section className="section">
        <SectionHeader
          title="Last pruner runs"
          meta="Scheduled on workers, from here, or from cyclium prune"
        />
        <DataTable
          columns={runColumns}
          data={overview.data.runs}
          rowId={(row) => row.id}
          testId="pruner-runs-table"
          empty={
            <p className="muted">
              No pruner run yet: workers prune a minute after they start
              (CYCLIUM_PRUNER_INTERVAL_MS).
            </p>
          }
        />
      </section>
    </>
  );
}
