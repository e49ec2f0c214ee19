import type { TestDatabase } from "@cyclium/db/testing";
import type pg from "pg";
import {
  startRequestedEpisodes,
  type StartedRequestedEpisode,
} from "../../deferred/start-requested-episodes";
import type { EpisodeEnd } from "../end-episodes";

// Fixtures of the episode's own lease tests: pending episodes owned by trigger requests, their
// in-row start, an end as the runner sends it, a lease made to lapse, the row's lease columns.

export const ACTOR = "lease_actor";

/** Pending episodes, each owned by a pending trigger request (the deferred path). */
export async function seedRequested(
  db: TestDatabase,
  count: number,
  dedupePrefix: string | null = null,
): Promise<string[]> {
  const { rows } = await db.pool.query<{ id: string }>(
    `WITH e AS (
       INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, dedupe_key)
       SELECT $1, 'run', 'pending', 'manual',
              CASE WHEN $3::text IS NULL THEN NULL ELSE $3::text || g END
         FROM generate_series(1, $2::int) g
       RETURNING id)
     INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
     SELECT id, $1, 'run', 'pending' FROM e
     RETURNING episode_id::text AS id`,
    [ACTOR, count, dedupePrefix],
  );
  return rows.map((row) => row.id);
}

export function start(node: string, limit: number, pool: pg.Pool, leaseSeconds = 60) {
  return startRequestedEpisodes(
    {
      node,
      leaseSeconds,
      limits: [{ actorId: ACTOR, limit }],
      sourceStack: null,
      sourceEnv: null,
    },
    pool,
  );
}

export async function startOne(node: string, pool: pg.Pool): Promise<StartedRequestedEpisode> {
  const [started] = await start(node, 1, pool);
  if (started === undefined) throw new Error("nothing started");
  return started;
}

/** A completed end with its final step, fenced as given. */
export function end(started: { episodeId: string; fence: EpisodeEnd["fence"] }): EpisodeEnd {
  return {
    episodeId: started.episodeId,
    fence: started.fence,
    status: "completed",
    result: { by: started.fence?.owner },
    finalStep: {
      stepNo: 1,
      outcome: "done",
      data: null,
      turns: 0,
      tokens: 0,
      durationMs: 1,
      attempt: started.fence?.attempt ?? 1,
    },
  };
}

/** The lease runs out (as when its owner stopped renewing a while ago). */
export async function lapse(db: TestDatabase, episodeId: string): Promise<void> {
  await db.pool.query(
    "UPDATE cyclium_episodes SET lease_until = now() - interval '1 second' WHERE id = $1",
    [episodeId],
  );
}

export async function leaseRow(db: TestDatabase, episodeId: string) {
  const { rows } = await db.pool.query<{
    status: string;
    attempt: number;
    executed_by: string | null;
    leased: boolean;
    result: unknown;
  }>(
    `SELECT status, attempt, executed_by, lease_until IS NOT NULL AS leased, result
       FROM cyclium_episodes WHERE id = $1`,
    [episodeId],
  );
  return rows[0];
}
