import type { ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";
import {
  limitGateSql,
  limitRulesParam,
  toLimitWait,
  type LimitRule,
  type LimitWait,
} from "../limits/index";
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
  /** Its cluster-wide limits (SPEC section 16, limits/): the start's gate checks them. */
  limits?: readonly LimitRule[];
}

export type StartEpisodeResult =
  | { kind: "started"; episode: Episode }
  /** Not pending any more (cancelled, expired, run elsewhere) or archived: nothing to do. */
  | { kind: "not_pending" }
  | { kind: "fenced" }
  /** A cluster-wide limit is full (SPEC section 16): still pending. */
  | { kind: "limited"; wait: LimitWait };

const PARAMS = 5;
const GATE = limitGateSql("ARRAY[$1::uuid]", "$5::jsonb");

// pending -> running only: a queued episode that was cancelled or expired meanwhile, or that
// another node already started, is left alone. A restarted (recovered) episode is pending again,
// so it starts here too; its started_at is reset to this run's start, which the wall budget and
// the recovery sweep's staleness both measure from.
function sql(fence: string): string {
  return `
WITH ${fence},
${GATE.cte},
started AS (
  UPDATE cyclium_episodes
     SET status = 'running', finished_at = NULL,
         executed_by = $2, queued_by = NULL, queued_at = NULL, updated_at = now(),
         trace_context = CASE WHEN $4::text IS NULL THEN trace_context
           ELSE COALESCE(trace_context, '{}'::jsonb) || jsonb_build_object('run', $4::text)
         END,
         ${GATE.set("$1::uuid")}
   WHERE id = $1 AND status IN ('pending', 'waiting') AND archived_at IS NULL
     AND EXISTS (SELECT 1 FROM fence) AND NOT ${GATE.refused("$1::uuid")}
  RETURNING ${episodeColumns()}
),
${GATE.writes("started")},
-- Reads the statement's snapshot, so it never sees the row the UPDATE above just changed: at
-- most one of started/adopted has a row.
adopted AS (
  SELECT ${episodeColumns()} FROM cyclium_episodes
   WHERE $3::boolean AND id = $1 AND status = 'running' AND executed_by = $2
     AND archived_at IS NULL AND EXISTS (SELECT 1 FROM fence)
)
SELECT EXISTS (SELECT 1 FROM fence) AS held,
       (SELECT lg.wait FROM limit_gate lg WHERE lg.admitted_at IS NULL) AS limit_wait, mine.*
  FROM (SELECT 1) AS one
  LEFT JOIN (SELECT * FROM started UNION ALL SELECT * FROM adopted) AS mine ON true`;
}

/** Marks a pending episode running, only while the caller holds its claim. */
export async function startEpisode(
  options: StartEpisodeOptions,
  db: Queryable,
): Promise<StartEpisodeResult> {
  const fence = fenceCte(options.fence, PARAMS + 1);
  const result = await db.query<{ held: boolean; limit_wait: unknown } & Partial<EpisodeRow>>(
    sql(fence.sql),
    [
      options.episodeId,
      options.executedBy,
      options.resend === true,
      options.runTraceparent ?? null,
      limitRulesParam([options.limits]),
      ...fence.values,
    ],
  );
  const row = result.rows[0];
  if (!row?.held) return { kind: "fenced" };
  if (row.id === undefined || row.id === null) {
    if (row.limit_wait !== null) return { kind: "limited", wait: toLimitWait(row.limit_wait) };
  }
  if (row.id === undefined || row.id === null) return { kind: "not_pending" };
  return { kind: "started", episode: toEpisode(row as EpisodeRow) };
}
