import type { ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";
import { episodeColumns, toEpisode, type Episode, type EpisodeRow } from "./episode-row";
import { fenceCte } from "./fence-cte";

export interface StartEpisodeOptions {
  episodeId: string;
  /** From the claim's acquire; null when claims are off. */
  fence: ClaimFence | null;
  /** Node identity that runs it (`executed_by`). */
  executedBy: string;
  /**
   * This start was sent before and failed on a transient error, so it may have committed with
   * its reply lost: an episode already `running`, executed by this node, under a claim this
   * writer still holds at its attempt, is its own earlier start and is answered `started`.
   */
  resend?: boolean;
  /** The traceparent of this attempt's run span, kept as `trace_context.run` (tracing on). */
  runTraceparent?: string | null;
}

export type StartEpisodeResult =
  | { kind: "started"; episode: Episode }
  /** Not pending any more (cancelled, expired, run elsewhere) or archived: nothing to do. */
  | { kind: "not_pending" }
  | { kind: "fenced" };

const PARAMS = 4;

// pending -> running only: a queued episode that was cancelled or expired meanwhile, or that
// another node already started, is left alone. A restarted (recovered) episode is pending again,
// so it starts here too; its started_at is reset to this run's start, which the wall budget and
// the recovery sweep's staleness both measure from.
function sql(fence: string): string {
  return `
WITH ${fence},
started AS (
  UPDATE cyclium_episodes
     SET status = 'running', started_at = now(), finished_at = NULL,
         executed_by = $2, queued_by = NULL, queued_at = NULL, updated_at = now(),
         trace_context = CASE WHEN $4::text IS NULL THEN trace_context
           ELSE COALESCE(trace_context, '{}'::jsonb) || jsonb_build_object('run', $4::text)
         END
   WHERE id = $1 AND status IN ('pending', 'waiting') AND archived_at IS NULL
     AND EXISTS (SELECT 1 FROM fence)
  RETURNING ${episodeColumns()}
),
-- Reads the statement's snapshot, so it never sees the row the UPDATE above just changed: at
-- most one of started/adopted has a row.
adopted AS (
  SELECT ${episodeColumns()} FROM cyclium_episodes
   WHERE $3::boolean AND id = $1 AND status = 'running' AND executed_by = $2
     AND archived_at IS NULL AND EXISTS (SELECT 1 FROM fence)
)
SELECT EXISTS (SELECT 1 FROM fence) AS held, mine.*
  FROM (SELECT 1) AS one
  LEFT JOIN (SELECT * FROM started UNION ALL SELECT * FROM adopted) AS mine ON true`;
}

/** Marks a pending episode running, only while the caller holds its claim. */
export async function startEpisode(
  options: StartEpisodeOptions,
  db: Queryable,
): Promise<StartEpisodeResult> {
  const fence = fenceCte(options.fence, PARAMS + 1);
  const result = await db.query<{ held: boolean } & Partial<EpisodeRow>>(sql(fence.sql), [
    options.episodeId,
    options.executedBy,
    options.resend === true,
    options.runTraceparent ?? null,
    ...fence.values,
  ]);
  const row = result.rows[0];
  if (!row?.held) return { kind: "fenced" };
  if (row.id === undefined || row.id === null) return { kind: "not_pending" };
  return { kind: "started", episode: toEpisode(row as EpisodeRow) };
}
