import { performance } from "node:perf_hooks";
import { runWithClaim, type RunWithClaimResult, type WorkClaims } from "../claims/index";
import type { Queryable } from "../db/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { pruneByAge, type AgePrunedFamily } from "./prune-by-age";
import { listActorsWithFinishedEpisodes, pruneFinishedEpisodes } from "./prune-episodes";
import { rollUpOldestTelemetryHour } from "./prune-telemetry";
import {
  EMPTY_PRUNED_COUNTS,
  type PrunedCounts,
  type PrunerRun,
  type PrunerTrigger,
} from "./pruner-run-row";
import { recordPrunerRun } from "./pruner-runs";
import { episodeAgeFor, type RetentionPolicy } from "./retention-policy";

/** The one claim every node's pruner competes for: one run at a time cluster-wide. */
export const PRUNER_CLAIM_KEY = "pruner:run";

/**
 * 1,000 episodes per statement: with ~5 steps each, one batch deletes ~7,000 rows in well under
 * a second, short enough that no lock is held long. 50 batches per family per run bound a run
 * to ~50,000 episodes per actor; a run that reaches the cap is followed by the next one within a
 * second (pruner-extension.ts), so a backlog or a sustained intake drains run after run.
 */
export const DEFAULT_PRUNER_BATCH_SIZE = 1_000;
export const DEFAULT_PRUNER_MAX_BATCHES = 50;

export interface RunPrunerOptions {
  claims: WorkClaims;
  owner: string;
  leaseSeconds: number;
  policy: RetentionPolicy;
  trigger: PrunerTrigger;
  requestedBy?: string | null;
  batchSize?: number;
  /** Per family (per actor for episodes) in one run. */
  maxBatches?: number;
  /** The node's shutdown signal: the run stops between batches. */
  signal?: AbortSignal;
  logger: Logger;
  telemetry: Telemetry;
  /** Called before each batch, with the family about to be pruned (tests pause here). */
  onBatch?: (family: keyof PrunedCounts) => void | Promise<void>;
}

/**
 * `capped`: some family still had a full batch when it reached `maxBatches`, so more history is
 * due than one run removes; the scheduled pruner runs again soon instead of an interval later.
 */
export type RunPrunerResult =
  { kind: "busy" } | { kind: "pruned"; run: PrunerRun; capped: boolean };

/**
 * One pruner run (SPEC section 14): under the work claim `pruner:run`, every family past its age
 * is deleted in bounded batches, oldest first, then the run is recorded and reported as
 * `cyclium.pruner.run` (with a measurement per family) and `cyclium.pruner.deleted` (rows).
 * Each batch is its own statement, so the run never holds a lock across batches, and a run
 * stopped at any point has removed whole batches only.
 */
export async function runPruner(
  options: RunPrunerOptions,
  db: Queryable,
): Promise<RunPrunerResult> {
  const started = performance.now();
  const outcome: RunWithClaimResult<PruneProgress> = await runWithClaim(
    {
      claims: options.claims,
      dedupeKey: PRUNER_CLAIM_KEY,
      owner: options.owner,
      leaseSeconds: options.leaseSeconds,
      logger: options.logger,
      ...(options.signal ? { signal: options.signal } : {}),
    },
    (claimed) => pruneAll(options, claimed.signal, db),
  );
  if (outcome.kind === "busy") return { kind: "busy" };
  const { deleted, batches, interrupted, capped } = outcome.value;
  const totalDeleted = (Object.values(deleted) as number[]).reduce((sum, n) => sum + n, 0);
  const durationMs = performance.now() - started;
  const run = await recordPrunerRun(
    {
      node: options.owner,
      trigger: options.trigger,
      requestedBy: options.requestedBy ?? null,
      status: interrupted ? "interrupted" : "completed",
      policies: options.policy,
      deleted,
      totalDeleted,
      batches,
      durationMs,
    },
    db,
  );
  options.telemetry.emit(
    "cyclium.pruner.run",
    { count: 1, duration_ms: durationMs, batches, ...snakeCaseKeys(deleted) },
    { node: options.owner, trigger: options.trigger, status: run.status },
  );
  if (totalDeleted > 0) {
    options.telemetry.emit("cyclium.pruner.deleted", { count: totalDeleted });
    options.logger.info(
      { deleted, batches, duration_ms: durationMs },
      "pruner removed old history",
    );
  }
  return { kind: "pruned", run, capped: capped && !interrupted };
}

interface PruneProgress {
  deleted: PrunedCounts;
  batches: number;
  interrupted: boolean;
  capped: boolean;
}

async function pruneAll(
  options: RunPrunerOptions,
  signal: AbortSignal,
  db: Queryable,
): Promise<PruneProgress> {
  const limit = options.batchSize ?? DEFAULT_PRUNER_BATCH_SIZE;
  const maxBatches = options.maxBatches ?? DEFAULT_PRUNER_MAX_BATCHES;
  const { policy } = options;
  const progress: PruneProgress = {
    deleted: { ...EMPTY_PRUNED_COUNTS },
    batches: 0,
    interrupted: false,
    capped: false,
  };

  /** Runs `batch` until it returns less than a full batch, the cap, or the stop signal. */
  const drain = async (
    family: keyof PrunedCounts,
    full: number,
    batch: () => Promise<number>,
  ): Promise<void> => {
    for (let n = 0; n < maxBatches; n += 1) {
      if (signal.aborted) {
        progress.interrupted = true;
        return;
      }
      await options.onBatch?.(family);
      const removed = await batch();
      progress.batches += 1;
      if (removed < full) return;
    }
    progress.capped = true;
  };

  for (const actorId of await listActorsWithFinishedEpisodes(db)) {
    const age = episodeAgeFor(policy, actorId);
    if (age === null) continue;
    await drain("episodes", limit, async () => {
      const pruned = await pruneFinishedEpisodes({ actorId, olderThanMs: age, limit }, db);
      progress.deleted.episodes += pruned.episodes;
      progress.deleted.steps += pruned.steps;
      progress.deleted.checkpoints += pruned.checkpoints;
      progress.deleted.triggerRequests += pruned.triggerRequests;
      return pruned.episodes;
    });
  }
  if (policy.telemetryMinutes !== null) {
    const olderThanMs = policy.telemetryMinutes;
    // One hour per statement; "full" is any hour moved, so the loop ends on the first empty one.
    await drain("telemetryMinutes", 1, async () => {
      const moved = await rollUpOldestTelemetryHour({ olderThanMs }, db);
      progress.deleted.telemetryMinutes += moved;
      return moved;
    });
  }
  const ageOf: Record<AgePrunedFamily, number | null> = {
    workClaims: policy.episodes,
    workflowInstances: policy.episodes,
    triggerFirings: policy.triggerFirings,
    telemetryHours: policy.telemetryHours,
    recoverySweeps: policy.maintenanceRuns,
    prunerRuns: policy.maintenanceRuns,
    expiredSessions: policy.expiredSessions,
    clearedFindings: policy.clearedFindings,
    auditLog: policy.auditLog,
  };
  for (const [family, olderThanMs] of Object.entries(ageOf) as [AgePrunedFamily, number | null][]) {
    if (olderThanMs === null) continue;
    await drain(family, limit, async () => {
      const removed = await pruneByAge({ family, olderThanMs, limit }, db);
      progress.deleted[family] += removed;
      return removed;
    });
  }
  return progress;
}

/** `triggerRequests` -> `trigger_requests`: measurement names become Prometheus metric names. */
function snakeCaseKeys(counts: PrunedCounts): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts).map(([key, value]) => [
      key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      value,
    ]),
  );
}
