"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LiveIndicator } from "@/components/overview/live-indicator";
import { columnHelper, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorCallout, LoadingRows, SectionHeader } from "@/components/ui/query-state";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { isNotFoundError } from "@/lib/not-found-error";
import { useEnvInput, withEnv } from "@/lib/url-state";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";
import { TriggerActions } from "./trigger-actions";
import { ruleOf } from "./triggers-live";

type TFiring = TRouterOutputs["triggers"]["inspect"]["recent_firings"][number];
const REFRESH_MS = 2_000;
const column = columnHelper<TFiring>();

const firingColumns = column.columns([
  column.accessor("fired_at", {
    header: "Fired",
    cell: (info) => <TimeAgo iso={info.getValue()} />,
  }),
  column.accessor("source", {
    header: "Source",
    cell: (info) => <span className="pill">{info.getValue()}</span>,
  }),
  column.accessor("status", {
    header: "Status",
    cell: (info) => <StatusPill status={info.getValue()} />,
  }),
  column.accessor("scheduled_time", {
    header: "Window",
    cell: (info) => <span className="mono note">{info.getValue() ?? "—"}</span>,
  }),
  column.accessor("outcomes", {
    header: "Fan-out outcomes",
    meta: { className: "wrap" },
    cell: (info) => (
      <div className="mode-cell" style={{ flexWrap: "wrap" }}>
        {info.getValue().map((outcome) => (
          <span key={outcome.workflow} className="mode-cell" title={outcome.error ?? undefined}>
            <StatusPill
              status={outcome.status === "started" ? "ok" : "failed"}
              label={outcome.workflow}
            />
            {outcome.primary ? <span className="note">primary</span> : null}
            {outcome.instance_id ? (
              <Link className="note" href={`/workflows/${outcome.instance_id}`}>
                instance
              </Link>
            ) : null}
          </span>
        ))}
      </div>
    ),
  }),
  column.accessor("fired_by", {
    header: "By",
    cell: (info) => <span className="mono note">{info.getValue() ?? "scheduler"}</span>,
  }),
]);

export function TriggerDetail({
  name,
  canOperate,
  envParam,
}: {
  name: string;
  canOperate: boolean;
  envParam: string | null;
}) {
  const trpc = useTRPC();
  const env = useEnvInput();
  const refreshMs = useRefetchInterval(REFRESH_MS);
  const detail = useQuery({
    ...trpc.triggers.inspect.queryOptions({ env, name, firings: 50 }),
    // An unknown trigger is not polled again (the page below becomes the 404 page anyway).
    refetchInterval: (query) => (isNotFoundError(query.state.error) ? false : refreshMs),
  });
  const back = (
    <div className="breadcrumb">
      <Link href={withEnv("/triggers", envParam)}>Triggers</Link> /
    </div>
  );
  if (detail.isPending)
    return (
      <>
        {back}
        <LoadingRows label="Loading the trigger" />
      </>
    );
  if (detail.isError && isNotFoundError(detail.error)) notFound();
  if (detail.isError && !detail.data)
    return (
      <>
        {back}
        <ErrorCallout error={detail.error} what="this trigger" />
      </>
    );
  const { trigger, recent_firings: firings } = detail.data;
  return (
    <>
      {back}
      <div className="page-header">
        <div>
          <h1 className="page-title mono">{trigger.name}</h1>
          <p className="page-summary">
            {trigger.paused ? (
              <StatusPill status="paused" />
            ) : (
              <StatusPill status="ok" label="active" />
            )}{" "}
            <span className="pill">{trigger.kind}</span>{" "}
            <span className="mono">{ruleOf(trigger)}</span>
            {trigger.paused && trigger.paused_by ? (
              <span className="note"> · paused by {trigger.paused_by}</span>
            ) : null}
          </p>
        </div>
        <div className="page-actions">
          {canOperate ? <TriggerActions name={trigger.name} paused={trigger.paused} /> : null}
          <LiveIndicator state={detail.isError ? "error" : "live"} refreshMs={REFRESH_MS} />
        </div>
      </div>
      <div className="tiles">
        <div className="tile">
          <div className="tile-label">Next fire</div>
          <div className="tile-value" style={{ fontSize: 16 }}>
            {trigger.paused ? "paused" : <TimeAgo iso={trigger.next_fire_at} />}
          </div>
        </div>
        <div className="tile">
          <div className="tile-label">Last fire</div>
          <div className="tile-value" style={{ fontSize: 16 }}>
            <TimeAgo iso={trigger.last_fire_at} fallback="never" />
          </div>
        </div>
        <div className="tile">
          <div className="tile-label">Workflows</div>
          <div className="tile-value mono" style={{ fontSize: 14 }}>
            {(trigger.subscribers ?? [trigger.workflow]).join(", ")}
          </div>
          <div className="tile-hint">primary first, then subscribers</div>
        </div>
      </div>
      <section className="section">
        <SectionHeader title="Firing history" meta={`${firings.length} most recent`} />
        <DataTable
          columns={firingColumns}
          data={firings}
          rowId={(row) => row.id}
          testId="firings-table"
          empty={
            <EmptyState icon="bolt" title="Never fired" testId="firings-empty">
              Firings appear here with the outcome of every workflow they started.
            </EmptyState>
          }
        />
      </section>
    </>
  );
}
