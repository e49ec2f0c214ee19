import type { ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { reportFenced } from "./append-step";
import { episodeColumns, toEpisode, type Episode, type EpisodeRow } from "./episode-row";
import { fenceCte } from "./fence-cte";

export interface FinishEpisodeOptions {
  episodeId: string;
  /** From the claim's acquire; null when claims are off. */
  fence: ClaimFence | null;
  status: "completed" | "failed" | "cancelled";
  result?: unknown;
  errorClass?: string | null;
  errorMessage?: string | null;
  /** Node identity that ran the episode. */
  executedBy?: string | null;
  telemetry?: Telemetry;
  logger?: Logger;
}

export type FinishEpisodeResult =
  | { kind: "finished"; episode: Episode }
  /** The episode was not pending/running any more (already finished, or no such id). */
  | { kind: "not_running" }
  /** The writer's attempt is no longer the claim's: the episode row was left alone. */
  | { kind: "fenced" };

const PARAMS = 6;

function sql(fence: string): string {
  return `
WITH ${fence},
finished AS (
  UPDATE cyclium_episodes
     SET status = $2,
         result = $3::jsonb,
         error_class = $4,
         error_message = $5,
         executed_by = COALESCE($6, executed_by),
         finished_at = now(),
         updated_at = now()
   WHERE id = $1
     AND status IN ('pending', 'running')
     AND EXISTS (SELECT 1 FROM fence)
  RETURNING ${episodeColumns()}
)
SELECT EXISTS (SELECT 1 FROM fence) AS held, finished.*
  FROM (SELECT 1) AS one LEFT JOIN finished ON true`;
}

/** Writes an episode's final status, only while the writer still holds its claim. */
export async function finishEpisode(
  options: FinishEpisodeOptions,
  db: Queryable,
): Promise<FinishEpisodeResult> {
  const fence = fenceCte(options.fence, PARAMS + 1);
  const result = await db.query<{ held: boolean } & Partial<EpisodeRow>>(sql(fence.sql), [
    options.episodeId,
    options.status,
    options.result === undefined ? null : JSON.stringify(options.result),
    options.errorClass ?? null,
    options.errorMessage ?? null,
    options.executedBy ?? null,
    ...fence.values,
  ]);
  const row = result.rows[0];
  if (!row?.held) {
    reportFenced("finish", options);
    return { kind: "fenced" };
  }
  if (row.id === undefined || row.id === null) return { kind: "not_running" };
  return { kind: "finished", episode: toEpisode(row as EpisodeRow) };
}
