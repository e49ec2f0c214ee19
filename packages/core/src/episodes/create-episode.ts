import { setTimeout as sleep } from "node:timers/promises";
import type { Queryable } from "../db/index";
import { CycliumError } from "../errors/index";
import { defaultTelemetry, silentLogger, type Logger, type Telemetry } from "../telemetry/index";
import { injectTraceContext, type TraceCarrier } from "../tracing/index";
import {
  episodeColumns,
  toEpisode,
  type Episode,
  type EpisodeRow,
  type TriggerType,
} from "./episode-row";

/** SPEC section 3: nodes wait up to this long before inserting, so winners spread out. */
export const DEFAULT_CREATE_JITTER_MS = 200;

export interface CreateEpisodeOptions {
  actorId: string;
  expectationId: string;
  triggerType: TriggerType;
  /** From `dedupeKey(...)`; null for fires that are never deduplicated. */
  dedupeKey: string | null;
  input?: unknown;
  /** `pending` (default) waits for a slot or a deferred runner; `running` also sets started_at. */
  status?: "pending" | "running";
  sourceNode: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
  workflowInstanceId?: string | null;
  workflowStep?: string | null;
  /**
   * The node whose queue takes the new pending episode (a local fire on a full node): stamped in
   * the same statement, so the episode is never pending without an owner the database knows of.
   */
  queuedBy?: string | null;
  /**
   * The W3C trace context the worker's run continues; by default the active span's (the fire's),
   * null when nothing is traced.
   */
  traceContext?: TraceCarrier | null;
  /** Upper bound of the random wait before the insert; 0 in tests. Default 200 ms. */
  jitterMs?: number;
  /** Cancels the jitter wait (node shutdown). */
  signal?: AbortSignal;
  logger?: Logger;
  telemetry?: Telemetry;
}

export type CreateEpisodeResult =
  | { kind: "created"; episode: Episode }
  /** Another node (or an earlier fire) already has a live episode with this key. */
  | { kind: "deduped"; dedupeKey: string };

// The arbiter is the partial unique index cyclium_episodes_dedupe_key_live_key (its predicate
// must be repeated for PostgreSQL to infer it). DO NOTHING is the "someone else won" outcome of
// that unique violation without raising it, so a caller's surrounding transaction survives
// losing the race. Archived episodes are outside the index and never block a new one.
const SQL = `
INSERT INTO cyclium_episodes (
  actor_id, expectation_id, status, trigger_type, dedupe_key, input,
  source_node, source_stack, source_env, workflow_instance_id, workflow_step, started_at,
  queued_by, queued_at, trace_context)
VALUES ($1, $2, $3::varchar, $4, $5, $6::jsonb, $7, $8, $9, $10, $11,
        CASE WHEN $3::varchar = 'running' THEN now() END,
        $12::varchar, CASE WHEN $12::varchar IS NOT NULL THEN now() END, $13::jsonb)
ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL AND archived_at IS NULL DO NOTHING
RETURNING ${episodeColumns()}`;

/**
 * Inserts an episode unless one with the same dedupe key is live. Losing that race is an
 * expected outcome on every node but one: logged at debug level and returned, never thrown.
 */
export async function createEpisode(
  options: CreateEpisodeOptions,
  db: Queryable,
): Promise<CreateEpisodeResult> {
  const jitterMs = options.jitterMs ?? DEFAULT_CREATE_JITTER_MS;
  if (!Number.isFinite(jitterMs) || jitterMs < 0) {
    throw new CycliumError("invalid_input", `jitterMs must be >= 0 (got ${jitterMs})`);
  }
  if (jitterMs > 0) {
    await sleep(
      Math.random() * jitterMs,
      undefined,
      options.signal ? { signal: options.signal } : {},
    );
  }
  const result = await db.query<EpisodeRow>(SQL, [
    options.actorId,
    options.expectationId,
    options.status ?? "pending",
    options.triggerType,
    options.dedupeKey,
    JSON.stringify(options.input ?? {}),
    options.sourceNode,
    options.sourceStack,
    options.sourceEnv,
    options.workflowInstanceId ?? null,
    options.workflowStep ?? null,
    options.queuedBy ?? null,
    traceContextParam(options.traceContext),
  ]);
  const row = result.rows[0];
  if (row) return { kind: "created", episode: toEpisode(row) };

  // No row back only happens on a dedupe conflict, so the key cannot be null here.
  const dedupeKey = options.dedupeKey ?? "";
  (options.logger ?? silentLogger).debug(
    { actor_id: options.actorId, dedupe_key: dedupeKey },
    "dedupe skip: a live episode with this key exists",
  );
  (options.telemetry ?? defaultTelemetry).emit(
    "cyclium.episode.deduped",
    { count: 1 },
    { dedupe_key: dedupeKey, actor_id: options.actorId },
  );
  return { kind: "deduped", dedupeKey };
}

function traceContextParam(given: TraceCarrier | null | undefined): string | null {
  const carrier = given === undefined ? injectTraceContext() : given;
  return carrier === null ? null : JSON.stringify(carrier);
}
