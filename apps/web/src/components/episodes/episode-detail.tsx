"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { notFound, useSearchParams } from "next/navigation";
import { LiveIndicator } from "@/components/overview/live-indicator";
import { JsonBlock } from "@/components/ui/json-block";
import { ErrorCallout, LoadingRows, StaleCallout } from "@/components/ui/query-state";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { formatCount } from "@/lib/format-count";
import { plural } from "@/lib/plural";
import { formatDuration } from "@/lib/format-duration";
import type { TEpisodeDetailView as TEpisodeDetail } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";
import { AttemptsCard } from "./attempts-card";
import { CheckpointsCard } from "./checkpoints-card";
import { OutputsCard } from "./outputs-card";
import { ClaimCard } from "./claim-card";
import { EpisodeActions } from "./episode-actions";
import { withEnvParam } from "./episode-links";
import { EpisodeErrorCallout } from "./episode-error";
import { EpisodeSideCards } from "./episode-side-cards";
import { FailureStory } from "./failure-story";
import { RetryWithInput } from "./retry-with-input";
import { StepTimeline } from "./step-timeline";
import { WaitCallout } from "./wait-reason";
import { WaitPanel } from "./wait-panel";

const ACTIVE_REFRESH_MS = 1_000;
/**
 * An active episode's end is pushed, but its start and its steps are not (one NOTIFY per step
 * would double the bus traffic of a run): with the live stream on it still polls, more slowly.
 */
const ACTIVE_STREAMING_MS = 5_000;
const SETTLED_REFRESH_MS = 10_000;

function Facts({ episode }: { episode: TEpisodeDetail }) {
  const runMs =
    episode.startedAt === null
      ? null
      : (episode.finishedAt ? Date.parse(episode.finishedAt) : Date.parse(episode.updatedAt)) -
        Date.parse(episode.startedAt);
  return (
    <dl className="facts">
      <dt>Episode</dt>
      <dd className="mono">{episode.id}</dd>
      <dt>Trigger</dt>
      <dd>
        <span className="pill">{episode.triggerType}</span>
      </dd>
      <dt>Attempt</dt>
      <dd data-testid="episode-attempt">
        {episode.attempt}
        {episode.maxAttempts !== null && episode.maxAttempts > 1
          ? ` of ${episode.maxAttempts}`
          : ""}
      </dd>
      <dt>Usage</dt>
      <dd>
        {plural(episode.turnsUsed, "turn")} · {formatCount(episode.tokensUsed)}{" "}
        {episode.tokensUsed === 1 ? "token" : "tokens"}
        {runMs !== null ? ` · ${formatDuration(runMs)}` : ""}
      </dd>
      <dt>Env / stack</dt>
      <dd>
        {episode.sourceEnv ?? "default"} / {episode.sourceStack ?? "—"}
      </dd>
      <dt>Created by</dt>
      <dd className="mono">{episode.sourceNode ?? "—"}</dd>
      <dt>Executed by</dt>
      <dd className="mono">{episode.executedBy ?? "—"}</dd>
      <dt>Inserted</dt>
      <dd>
        <TimeAgo iso={episode.insertedAt} />
      </dd>
      <dt>Started</dt>
      <dd>
        <TimeAgo iso={episode.startedAt} fallback="not yet" />
      </dd>
      <dt>Finished</dt>
      <dd>
        <TimeAgo iso={episode.finishedAt} fallback="not yet" />
      </dd>
      {episode.workflowInstanceId ? (
        <>
          <dt>Workflow</dt>
          <dd>
            <Link href={`/workflows/${episode.workflowInstanceId}`}>
              step {episode.workflowStep ?? "?"}
            </Link>
          </dd>
        </>
      ) : null}
      {episode.dedupeKey ? (
        <>
          <dt>Dedupe key</dt>
          <dd className="mono note">{episode.dedupeKey}</dd>
        </>
      ) : null}
    </dl>
  );
}

export function EpisodeDetail({ id, canOperate }: { id: string; canOperate: boolean }) {
  const trpc = useTRPC();
  const envParam = useSearchParams().get("env");
  const activeMs = useRefetchInterval(ACTIVE_REFRESH_MS, { streamingMs: ACTIVE_STREAMING_MS });
  const settledMs = useRefetchInterval(SETTLED_REFRESH_MS);
  const detail = useQuery({
    ...trpc.episodes.detail.queryOptions({ id }),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === "pending" || status === "running" || status === "waiting"
        ? activeMs
        : settledMs;
    },
  });
  const back = (
    <div className="breadcrumb">
      <Link href={withEnvParam("/episodes", envParam)}>Episodes</Link> /
    </div>
  );
  if (detail.isPending) {
    return (
      <>
        {back}
        <LoadingRows label="Loading the episode" rows={8} />
      </>
    );
  }
  if (detail.isError && !detail.data) {
    return (
      <>
        {back}
        <ErrorCallout error={detail.error} what="this episode" />
      </>
    );
  }
  const episode = detail.data;
  // No such episode (deleted, or another database's id): the console's 404 page.
  if (episode === null) notFound();
  const active = episode.status === "pending" || episode.status === "running";
  const retryable = episode.status === "failed" || episode.status === "cancelled";
  return (
    <>
      {back}
      <div className="page-header">
        <div>
          <h1 className="page-title">
            <span className="mono">{episode.actorId}</span> ·{" "}
            <span className="mono">{episode.expectationId}</span>
          </h1>
          <p className="page-summary" data-testid="episode-status" aria-live="polite">
            <StatusPill status={episode.status} />{" "}
            {episode.phase ? <span className="note">phase {episode.phase} · </span> : null}
            {episode.archivedAt ? <StatusPill status="archived" /> : null}
          </p>
        </div>
        <div className="page-actions">
          {canOperate ? <EpisodeActions episode={episode} /> : null}
          <LiveIndicator
            state={detail.isError ? "error" : "live"}
            refreshMs={active ? ACTIVE_REFRESH_MS : SETTLED_REFRESH_MS}
          />
        </div>
      </div>
      {detail.isError ? <StaleCallout error={detail.error} /> : null}
      {episode.status === "pending" ? <WaitCallout episodeId={episode.id} /> : null}
      {episode.status === "waiting" ? (
        <WaitPanel episodeId={episode.id} canOperate={canOperate} refreshMs={ACTIVE_STREAMING_MS} />
      ) : null}
      <EpisodeErrorCallout errorClass={episode.errorClass} errorMessage={episode.errorMessage} />
      {canOperate && retryable && episode.archivedAt === null ? (
        <RetryWithInput key={episode.attempt} episode={episode} />
      ) : null}
      <div className="detail-grid">
        <div>
          <section className="card">
            <div className="card-header">
              Step journal
              <span className="note">
                {plural(episode.steps.length, "step")}
                {episode.checkpoints > 0 ? ` · ${episode.checkpoints} checkpoints` : ""}
              </span>
            </div>
            <div className="card-body">
              <StepTimeline steps={episode.steps} status={episode.status} />
            </div>
          </section>
          <AttemptsCard
            episodeId={episode.id}
            attempt={episode.attempt}
            refreshMs={active ? ACTIVE_STREAMING_MS : SETTLED_REFRESH_MS}
          />
          <CheckpointsCard
            episodeId={episode.id}
            recoveryHistory={episode.recoveryHistory}
            refreshMs={active ? ACTIVE_REFRESH_MS : SETTLED_REFRESH_MS}
          />
          <OutputsCard
            episodeId={episode.id}
            refreshMs={active ? ACTIVE_REFRESH_MS : SETTLED_REFRESH_MS}
          />
          <section className="card">
            <div className="card-header">Input</div>
            <div className="card-body">
              <JsonBlock value={episode.input} />
            </div>
          </section>
          <section className="card">
            <div className="card-header">Result</div>
            <div className="card-body">
              <JsonBlock
                value={episode.result}
                empty={active ? "Not finished yet." : "No result."}
              />
            </div>
          </section>
        </div>
        <div>
          <section className="card">
            <div className="card-header">Summary</div>
            <div className="card-body">
              <Facts episode={episode} />
            </div>
          </section>
          <section className="card">
            <div className="card-header">Work claim</div>
            <div className="card-body">
              <ClaimCard claim={episode.claim} readAt={detail.dataUpdatedAt} />
            </div>
          </section>
          {active ? null : <FailureStory episode={episode} />}
          <EpisodeSideCards episode={episode} />
        </div>
      </div>
    </>
  );
}
