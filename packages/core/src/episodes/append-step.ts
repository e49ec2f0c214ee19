import type { ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";
import { defaultTelemetry, silentLogger, type Logger, type Telemetry } from "../telemetry/index";
import { fenceCte } from "./fence-cte";

export interface AppendStepOptions {
  episodeId: string;
  /** From the claim's acquire; null when claims are off. */
  fence: ClaimFence | null;
  /**
   * The step journal's attempt. Use the claim's attempt when claims are on: a node that took the
   * episode over then journals under a new attempt and never collides with the zombie's steps.
   */
  attempt: number;
  stepNo: number;
  outcome: string;
  data?: unknown;
  turns?: number;
  tokens?: number;
  durationMs?: number;
  /** Node identity of the writer. */
  node?: string | null;
  telemetry?: Telemetry;
  logger?: Logger;
}

export type AppendStepResult =
  | { kind: "written"; stepId: string }
  /** The same (episode, attempt, step) was already journaled, e.g. a retried write. */
  | { kind: "existed" }
  /** The writer's attempt is no longer the claim's: nothing was written. */
  | { kind: "fenced" };

const PARAMS = 9;

/**
 * One statement: the fence check, the step insert and the episode's usage counters
 * (`turns_used`, `tokens_used`, which the runner checks budgets against) move together or not at
 * all.
 */
function sql(fence: string): string {
  return `
WITH ${fence},
step AS (
  INSERT INTO cyclium_episode_steps
    (episode_id, attempt, step_no, outcome, data, turns, tokens, duration_ms, node)
  SELECT $1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9 FROM fence
  ON CONFLICT (episode_id, attempt, step_no) DO NOTHING
  RETURNING id, turns, tokens
),
usage AS (
  UPDATE cyclium_episodes e
     SET turns_used = e.turns_used + step.turns,
         tokens_used = e.tokens_used + step.tokens,
         updated_at = now()
    FROM step
   WHERE e.id = $1
  RETURNING e.id
)
SELECT EXISTS (SELECT 1 FROM fence) AS held,
       (SELECT id::text FROM step) AS step_id,
       (SELECT count(*) FROM usage) AS usage_rows`;
}

/** Writes one step-journal entry, only while the writer still holds the episode's claim. */
export async function appendStep(
  options: AppendStepOptions,
  db: Queryable,
): Promise<AppendStepResult> {
  const fence = fenceCte(options.fence, PARAMS + 1);
  const result = await db.query<{ held: boolean; step_id: string | null }>(sql(fence.sql), [
    options.episodeId,
    options.attempt,
    options.stepNo,
    options.outcome,
    options.data === undefined ? null : JSON.stringify(options.data),
    options.turns ?? 0,
    options.tokens ?? 0,
    Math.round(options.durationMs ?? 0),
    options.node ?? null,
    ...fence.values,
  ]);
  const row = result.rows[0];
  if (!row?.held) {
    reportFenced("step", options);
    return { kind: "fenced" };
  }
  if (row.step_id === null) return { kind: "existed" };
  return { kind: "written", stepId: row.step_id };
}

/** Logs and emits `cyclium.episode.fenced` for a rejected zombie write. */
export function reportFenced(
  write: "step" | "finish",
  options: { episodeId: string; fence: ClaimFence | null; telemetry?: Telemetry; logger?: Logger },
): void {
  const metadata = {
    episode_id: options.episodeId,
    dedupe_key: options.fence?.dedupeKey ?? null,
    owner_node: options.fence?.owner ?? null,
    attempt: options.fence?.attempt ?? null,
    write,
  };
  (options.logger ?? silentLogger).warn(
    metadata,
    "fenced write rejected: this node's claim attempt is stale (the episode was taken over)",
  );
  (options.telemetry ?? defaultTelemetry).emit("cyclium.episode.fenced", { count: 1 }, metadata);
}
