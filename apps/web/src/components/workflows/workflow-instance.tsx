"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { notFound, useSearchParams } from "next/navigation";
import { LiveIndicator } from "@/components/overview/live-indicator";
import { JsonBlock } from "@/components/ui/json-block";
import { ErrorCallout, LoadingRows } from "@/components/ui/query-state";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { withEnv } from "@/lib/url-state";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { BlockedInstanceActions } from "./blocked-instance-actions";
import { StepGraph } from "./step-graph";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

const REFRESH_MS = 2_000;

export function WorkflowInstance({ id, canOperate }: { id: string; canOperate: boolean }) {
  const trpc = useTRPC();
  const envParam = useSearchParams().get("env");
  const detail = useQuery({
    ...trpc.workflows.instance.queryOptions({ id }),
    refetchInterval: useRefetchInterval(REFRESH_MS),
  });
  const back = (
    <div className="breadcrumb">
      <Link href={withEnv("/workflows", envParam)}>Workflows</Link> /
    </div>
  );
  if (detail.isPending)
    return (
      <>
        {back}
        <LoadingRows label="Loading the instance" />
      </>
    );
  if (detail.isError && !detail.data)
    return (
      <>
        {back}
        <ErrorCallout error={detail.error} what="this instance" />
      </>
    );
  if (detail.data === null) notFound();
  const { instance, nodes, definitionKnown, failurePolicy } = detail.data;
  const pausedSteps = nodes.filter((node) => node.status === "paused");
  return (
    <>
      {back}
      <div className="page-header">
        <div>
          <h1 className="page-title mono">{instance.workflowName}</h1>
          <p className="page-summary">
            <StatusPill status={instance.status} /> <span className="mono note">{instance.id}</span>
          </p>
        </div>
        <LiveIndicator state={detail.isError ? "error" : "live"} refreshMs={REFRESH_MS} />
      </div>
      {instance.errorMessage ? (
        <div className="callout callout-error">{instance.errorMessage}</div>
      ) : null}
      {canOperate && instance.status === "blocked" ? (
        <BlockedInstanceActions instanceId={instance.id} pausedSteps={pausedSteps} />
      ) : null}
      <section className="card">
        <div className="card-header">
          Step graph
          <span className="note">
            {definitionKnown
              ? `failure policy ${failurePolicy ?? "abort"}`
              : "this console does not know the definition: steps without edges"}
          </span>
        </div>
        <StepGraph nodes={nodes} />
      </section>
      <div className="two-columns" style={{ marginTop: 16 }}>
        <section className="card">
          <div className="card-header">Instance</div>
          <div className="card-body">
            <dl className="facts">
              <dt>Started by</dt>
              <dd className="mono">{instance.triggerName ?? "direct start"}</dd>
              <dt>Env / stack</dt>
              <dd>
                {instance.sourceEnv ?? "default"} / {instance.sourceStack ?? "—"}
              </dd>
              <dt>Started</dt>
              <dd>
                <TimeAgo iso={instance.insertedAt} />
              </dd>
              <dt>Finished</dt>
              <dd>
                <TimeAgo iso={instance.finishedAt} fallback="not yet" />
              </dd>
            </dl>
          </div>
        </section>
        <section className="card">
          <div className="card-header">Context</div>
          <div className="card-body">
            <JsonBlock value={instance.context} />
          </div>
        </section>
      </div>
    </>
  );
}
