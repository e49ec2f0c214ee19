import { performance } from "node:perf_hooks";
import { z } from "zod";
import type { Bus } from "../bus/index";
import { claimKeyOf } from "../claims/claim-key";
import type { WorkClaims } from "../claims/index";
import { DEFAULT_LEASE_SECONDS } from "../claims/index";
import type { Connectable, Queryable } from "../db/index";
import { CycliumError } from "../errors/index";
import { resolveScope, type NodeScope, type ScopeOverrides } from "../scope/index";
import { defaultTelemetry, silentLogger, type Logger, type Telemetry } from "../telemetry/index";
import { EPISODE_FAILED_TOPIC, type TEpisodeEvent } from "../episodes/episode-events";
import { findStaleEpisodes } from "./find-stale-episodes";
import { mapWithConcurrency } from "./map-with-concurrency";
import { recoverBatch, type RecoveredEpisode } from "./recover-episodes";
import type {
  OrphanedEpisode,
  RecoveryPolicySource,
  ResolveRecoveryPolicy,
} from "../actors/recovery-policy";
import type { RecoveryTarget } from "./recovery-target";
import { resolveRecoveryPolicies } from "./resolve-recovery-policies";
import { shuffle } from "./shuffle";
import { inSpan, SPAN_ATTRIBUTES, SPAN_NAMES } from "../tracing/index";

/** SPEC section 5: an episode silent for two minutes is presumed orphaned. */
export const DEFAULT_STALE_AFTER_MS = 120_000;
/** Upper bound of one sweep's stale list; the periodic sweep takes the rest next time. */
export const DEFAULT_SWEEP_LIMIT = 10_000;

/**
 * Orphans per recovery transaction: one per 100 orphans of the sweep, at least 25 and at most 100.
 * Small enough that nodes sweeping together interleave (a sweep walks at least 100 batches up to
 * 10,000 orphans), large enough that a large sweep pays few transactions: with work claims on,
 * each batch is six to eight round trips and a commit, and one node recovered 10,000 orphans in
 * 1.2 s with 100 per batch instead of 3.8 s with 25 (docs/benchmarks.md, "Recovery sweep").
 */
const MIN_BATCH_SIZE = 25;
const MAX_BATCH_SIZE = 100;

function defaultRecoveryBatchSize(orphans: number): number {
  return Math.min(MAX_BATCH_SIZE, Math.max(MIN_BATCH_SIZE, Math.ceil(orphans / 100)));
}

/** Node-level configuration of recovery: what the node is, and what it can hand work to. */
export interface RecoveryConfig {
  db: Queryable & Connectable;
  /** The node identity (claims owner, recorded in recovery history). */
  node: string;
  scope: NodeScope;
  /** The work-claim gate; absent or passthrough means the recovery claim alone decides. */
  claims?: WorkClaims | undefined;
  leaseSeconds?: number | undefined;
  /**
   * The claim key of an episode; must match the runner's. Default: its dedupe key, or
   * `episode:{id}` for an episode without one (a manual fire without idempotency key).
   */
  claimKeyFor?: ((episode: OrphanedEpisode) => string) | undefined;
  registry?: RecoveryPolicySource | undefined;
  /**
   * The sweeping node's queue: restarted episodes are stamped as its own and handed to it. Without
   * one (a sweep from a process that runs no episodes), they become trigger requests.
   */
  target?: RecoveryTarget | undefined;
  /** When given, failed orphans are announced on `episode.failed` like any failed episode. */
  bus?: Bus | undefined;
  telemetry?: Telemetry | undefined;
  logger?: Logger | undefined;
  /** Statement batching and parallelism of one sweep; see `recover-episodes.ts`. */
  batchSize?: number | undefined;
  concurrency?: number | undefined;
  /** Shuffle source, injectable for tests. */
  random?: (() => number) | undefined;
}

/** The per-call options a caller (the console's "sweep now", a one-off task) may pass. */
export const ZSweepOptions = z.object({
  sourceStack: z.string().min(1).max(255).nullish(),
  sourceEnv: z.string().min(1).max(255).nullish(),
  staleAfterMs: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(1_000_000).optional(),
});

export interface SweepOptions extends ScopeOverrides {
  staleAfterMs?: number | undefined;
  resolvePolicy?: ResolveRecoveryPolicy | undefined;
  limit?: number | undefined;
}

export interface SweepResult {
  found: number;
  claimed: number;
  restarted: number;
  failed: number;
  skipped: number;
  durationMs: number;
  /** What this node recovered, in the order it did. */
  recovered: RecoveredEpisode[];
}

/** `recovery.sweep` (SPEC section 5), traced: the restarted episodes' runs link to their killed attempts. */
export function sweepOrphanedEpisodes(
  config: RecoveryConfig,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const attributes = { [SPAN_ATTRIBUTES.node]: config.node };
  return inSpan(SPAN_NAMES.recoverySweep, { attributes }, async (span) => {
    const result = await sweep(config, options);
    span.setAttributes({
      [SPAN_ATTRIBUTES.stale]: result.found,
      [SPAN_ATTRIBUTES.restarted]: result.restarted,
    });
    return result;
  });
}

async function sweep(config: RecoveryConfig, options: SweepOptions): Promise<SweepResult> {
  const started = performance.now();
  const logger = config.logger ?? silentLogger;
  const parsed = ZSweepOptions.safeParse(options);
  if (!parsed.success) {
    throw new CycliumError(
      "invalid_input",
      `Invalid sweep options: ${z.prettifyError(parsed.error)}`,
    );
  }
  const scope = resolveScope(config.scope, parsed.data);
  const stale = await findStaleEpisodes(
    {
      scope,
      staleAfterMs: parsed.data.staleAfterMs ?? DEFAULT_STALE_AFTER_MS,
      limit: parsed.data.limit ?? DEFAULT_SWEEP_LIMIT,
    },
    config.db,
  );
  const decisions = await resolveRecoveryPolicies({
    episodes: stale,
    registry: config.registry,
    resolvePolicy: options.resolvePolicy,
    db: config.db,
  });
  const order = shuffle(stale, config.random);

  const gate =
    config.claims !== undefined && config.claims.off !== true
      ? {
          claims: config.claims,
          leaseSeconds: config.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
          claimKeyFor: config.claimKeyFor ?? claimKeyOf,
        }
      : null;
  const batchSize = config.batchSize ?? defaultRecoveryBatchSize(order.length);
  const batches: OrphanedEpisode[][] = [];
  for (let i = 0; i < order.length; i += batchSize) batches.push(order.slice(i, i + batchSize));
  const outcomes = await mapWithConcurrency(batches, config.concurrency ?? 2, (batch) =>
    recoverBatch({
      db: config.db,
      node: config.node,
      episodes: batch,
      decisions,
      gate,
      queueOwner: config.target === undefined ? null : config.node,
      logger,
    }),
  );
  const recovered = outcomes.flat();

  await handOver(config, recovered, logger);

  const restarted = recovered.filter((episode) => episode.outcome === "restarted").length;
  const result: SweepResult = {
    found: stale.length,
    claimed: recovered.length,
    restarted,
    failed: recovered.length - restarted,
    skipped: stale.length - recovered.length,
    durationMs: performance.now() - started,
    recovered,
  };
  (config.telemetry ?? defaultTelemetry).emit(
    "cyclium.recovery.sweep",
    {
      count: 1,
      found: result.found,
      claimed: result.claimed,
      restarted: result.restarted,
      failed: result.failed,
      skipped: result.skipped,
      duration_ms: result.durationMs,
    },
    { node: config.node, source_stack: scope.stack, source_env: scope.env },
  );
  if (result.found > 0) {
    logger.info(
      { ...result, recovered: undefined, source_stack: scope.stack, source_env: scope.env },
      "recovery sweep",
    );
  }
  return result;
}

/**
 * After commit: restarted episodes go to this node's queue, which runs them under the actor's
 * limits (never dropped or shed) or hands them on as trigger requests when their actor may not run
 * here; the queue also adopts pending episodes of gone nodes now. Failed ones are announced so a
 * workflow waiting on them moves on without waiting for reconciliation.
 */
async function handOver(
  config: RecoveryConfig,
  recovered: readonly RecoveredEpisode[],
  logger: Logger,
): Promise<void> {
  const restarted = recovered.filter((episode) => episode.outcome === "restarted");
  try {
    if (restarted.length > 0) await config.target?.takeOwned(restarted);
    await config.target?.reconcileQueue?.();
  } catch (error) {
    // The rows name this node's queue: its next reconcile takes them, or, should this node die
    // first, another node adopts them. A hand-over error must not undo the sweep.
    logger.error({ err: error, restarted: restarted.length }, "recovery hand-over failed");
  }
  if (config.bus === undefined) return;
  for (const episode of recovered) {
    if (episode.outcome !== "failed") continue;
    try {
      const payload: TEpisodeEvent = {
        episodeId: episode.id,
        actorId: episode.actorId,
        expectationId: episode.expectationId,
        workflowInstanceId: episode.workflowInstanceId,
        workflowStep: episode.workflowStep,
        status: "failed",
        errorClass: "orphaned",
        errorMessage: "Orphaned: its node stopped mid-run.",
        sourceEnv: episode.sourceEnv,
      };
      await config.bus.publish(EPISODE_FAILED_TOPIC, payload);
    } catch (error) {
      logger.error({ err: error, episode_id: episode.id }, "could not announce a failed orphan");
    }
  }
}
