import type { ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";

/** One episode started ahead of a free slot whose strategy never ran and that gets no slot. */
export interface EpisodeUnstart {
  episodeId: string;
  /** Held since the start: nothing is changed unless this node still holds it at this attempt. */
  fence: ClaimFence;
  /** The trigger request a poller dispatched it from (claimed by this node): back to pending. */
  triggerRequestId?: string;
  /** `opts` of the trigger request written for an episode that had none (fired or queued here). */
  requestOpts?: { recovered?: true; resume?: unknown };
}

export type UnstartEpisodesOutcome =
  /**
   * Pending again, as if never started: its claim released, and owned by a trigger request again,
   * its own put back to `pending` (`released`) or a new one (`requested`).
   */
  | { kind: "unstarted"; request: "released" | "requested" }
  /** The claim was held but the episode was not running here (cancelled meanwhile): only the
   * claim was released. */
  | { kind: "not_running" }
  /** The claim is not this attempt's any more (a zombie): nothing written at all. */
  | { kind: "fenced" };

/**
 * Puts episodes that were started ahead of a free slot and never ran back to where an episode
 * never started is (docs/queues-and-recovery.md), in one statement and one commit, each fenced on
 * its claim attempt (FOR SHARE, as endEpisodes does):
 *
 * - the episode `pending`, `started_at` and `executed_by` cleared, as recovery's restart leaves a
 *   pending episode; `attempt`, `phase`, `recovery_history` and `trace_context` unchanged: its
 *   strategy never ran, so the next run is the same attempt (the attempt counts runs, and only a
 *   run that started its strategy can have journaled steps or errors under it), and nothing was
 *   recovered. A restarted episode stays `recovered` (never shed);
 * - its claim `done`, so the next acquire anywhere is a take-over at attempt + 1 (not a steal,
 *   which only a `claimed` claim gives), and this node's stale fence stays stale for good;
 * - its owner restored: the trigger request it was dispatched from back to `pending` (unclaimed),
 *   or, for an episode fired or queued here (whose start cleared `queued_by`), a new pending
 *   request, as a node hands over its queue (deferQueuedEpisodes). One NOTIFY wakes the pollers.
 *
 * Without the fence nothing is written: a node whose claim was stolen (recovery took the episode)
 * must not move it. The claim's release follows the fence, not the episode (as endEpisodes does),
 * so an episode cancelled while it waited still frees its claim.
 */
const SQL = `
WITH input AS (
  SELECT * FROM unnest($2::uuid[], $3::text[], $4::int[], $5::bigint[], $6::jsonb[], $9::boolean[])
    AS t(episode_id, claim_key, claim_attempt, request_id, opts, in_row)
),
held AS (
  SELECT i.episode_id
    FROM cyclium_work_claims c JOIN input i
      ON c.dedupe_key = i.claim_key AND c.owner_node = $1 AND c.attempt = i.claim_attempt
   WHERE c.dedupe_key = ANY($3::text[]) AND c.state = 'claimed' AND NOT i.in_row
   FOR SHARE OF c
),
-- The episode's own lease (SPEC section 4): the fence is the row's owner and attempt.
held_in_row AS (
  SELECT i.episode_id
    FROM cyclium_episodes e JOIN input i
      ON e.id = i.episode_id AND e.executed_by = $1 AND e.attempt = i.claim_attempt
   WHERE e.id = ANY($2::uuid[]) AND i.in_row AND e.lease_until IS NOT NULL
   FOR SHARE OF e
),
fence AS (
  SELECT i.* FROM input i
   WHERE i.episode_id IN (SELECT episode_id FROM held)
      OR i.episode_id IN (SELECT episode_id FROM held_in_row)
),
unstarted AS (
  UPDATE cyclium_episodes e
     -- Resumed from a durable wait it has not been woken from yet (SPEC 17): back to waiting,
     -- so its next start resumes it from the wait's checkpoint instead of running init again.
     SET status = CASE WHEN EXISTS (SELECT 1 FROM cyclium_episode_waits w
                                     WHERE w.episode_id = e.id AND w.woken_at IS NULL)
                       THEN 'waiting' ELSE 'pending' END,
         started_at = NULL, executed_by = NULL, lease_until = NULL,
         queued_by = NULL, queued_at = NULL, updated_at = now()
    FROM fence f
   WHERE e.id = ANY(ARRAY(SELECT episode_id FROM fence))
     AND e.id = f.episode_id AND e.status = 'running' AND e.executed_by = $1
     AND e.archived_at IS NULL
  RETURNING e.id, e.actor_id, e.expectation_id, e.source_stack, e.source_env, e.inserted_at
),
released AS (
  UPDATE cyclium_work_claims c
     SET state = 'done', updated_at = now()
    FROM fence f
   WHERE c.dedupe_key = ANY(ARRAY(SELECT claim_key FROM fence WHERE NOT in_row))
     AND NOT f.in_row AND c.dedupe_key = f.claim_key AND c.owner_node = $1
     AND c.attempt = f.claim_attempt AND c.state = 'claimed'
  RETURNING c.dedupe_key
),
request_released AS (
  UPDATE cyclium_trigger_requests r
     SET status = 'pending', claimed_by = NULL, claimed_at = NULL, updated_at = now()
    FROM fence f JOIN unstarted u ON u.id = f.episode_id
   WHERE r.id = ANY(ARRAY(SELECT request_id FROM fence WHERE request_id IS NOT NULL))
     AND r.id = f.request_id AND r.episode_id = f.episode_id
     AND r.status = 'claimed' AND r.claimed_by = $1
  RETURNING r.episode_id
),
-- Every unstarted episode gets an owner: a new request unless its own went back to pending (or
-- already was). While this node held the claim nothing else moves a request it claimed, so the
-- new one is for episodes fired or queued here; written in arrival order, as a hand-over does.
requested AS (
  INSERT INTO cyclium_trigger_requests
    (episode_id, actor_id, expectation_id, source_node, source_stack, source_env, status, opts)
  SELECT u.id, u.actor_id, u.expectation_id, $1, u.source_stack, u.source_env, 'pending',
         COALESCE(f.opts, '{}'::jsonb)
    FROM unstarted u JOIN fence f ON f.episode_id = u.id
   WHERE u.id NOT IN (SELECT episode_id FROM request_released)
     AND NOT EXISTS (SELECT 1 FROM cyclium_trigger_requests r
                      WHERE r.id = f.request_id AND r.status = 'pending')
   ORDER BY u.inserted_at, u.id
  RETURNING episode_id
),
notified AS (
  SELECT CASE WHEN count(*) > 0 THEN pg_notify($7, $8) END AS sent
    FROM (SELECT episode_id FROM request_released UNION ALL SELECT episode_id FROM requested) w
)
SELECT i.episode_id::text AS input_id,
       (f.episode_id IS NOT NULL) AS held,
       (u.id IS NOT NULL) AS unstarted,
       (rr.episode_id IS NOT NULL) AS request_released,
       (SELECT sent FROM notified) AS notified
  FROM input i
  LEFT JOIN fence f ON f.episode_id = i.episode_id
  LEFT JOIN unstarted u ON u.id = i.episode_id
  LEFT JOIN request_released rr ON rr.episode_id = i.episode_id`;

interface Row {
  input_id: string;
  held: boolean;
  unstarted: boolean;
  request_released: boolean;
}

/**
 * One outcome per input, in input order. Episode ids must be distinct. `wake`: the NOTIFY that
 * wakes trigger-request pollers (channel and payload), sent on commit when a request was freed.
 */
export async function unstartEpisodes(
  options: {
    node: string;
    episodes: readonly EpisodeUnstart[];
    wake: { channel: string; payload: string };
  },
  db: Queryable,
): Promise<UnstartEpisodesOutcome[]> {
  const { episodes } = options;
  if (episodes.length === 0) return [];
  for (const { episodeId, fence } of episodes) {
    if (fence.owner !== options.node) {
      throw new Error(
        `unstart of ${episodeId}: its fence names ${fence.owner}, not ${options.node}`,
      );
    }
  }
  const { rows } = await db.query<Row>(SQL, [
    options.node,
    episodes.map((e) => e.episodeId),
    episodes.map((e) => e.fence.dedupeKey),
    episodes.map((e) => e.fence.attempt),
    episodes.map((e) => e.triggerRequestId ?? null),
    episodes.map((e) => (e.requestOpts === undefined ? null : JSON.stringify(e.requestOpts))),
    options.wake.channel,
    options.wake.payload,
    episodes.map((e) => e.fence.episodeId !== undefined),
  ]);
  const byId = new Map(rows.map((row) => [row.input_id, row]));
  return episodes.map(({ episodeId }): UnstartEpisodesOutcome => {
    const row = byId.get(episodeId);
    if (row === undefined || !row.held) return { kind: "fenced" };
    if (!row.unstarted) return { kind: "not_running" };
    return { kind: "unstarted", request: row.request_released ? "released" : "requested" };
  });
}
