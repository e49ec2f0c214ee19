import type { ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";

/** One episode a stopping node ran part of and hands back for another node to resume. */
export interface EpisodeHandBack {
  episodeId: string;
  /** This run's claim: nothing is changed unless this node still holds it at this attempt. */
  fence: ClaimFence;
  /** The trigger request a poller dispatched it from: completed (a new one owns the episode). */
  triggerRequestId?: string;
  /** The steps this run finished (recorded in `recovery_history`); null when not known. */
  stepsDone: number | null;
}

export type HandBackEpisodesOutcome =
  /** Pending again at attempt + 1, its claim released, owned by a pending trigger request. */
  | { kind: "handed_back" }
  /** The claim was held but the episode was not running here (cancelled meanwhile). */
  | { kind: "not_running" }
  /** The claim is not this attempt's any more: nothing written at all. */
  | { kind: "fenced" };

/**
 * A stopping node's hand-back (docs/queues-and-recovery.md, "Deploys"): a running episode that
 * will not finish before the node exits goes back to `pending` at once, instead of staying
 * `running` with a failed claim until a recovery sweep finds it stale (120 s after the last step,
 * and the sweep itself first runs 120 s after a worker boots). One statement and one commit per
 * batch, each episode fenced on its claim attempt (FOR SHARE, as endEpisodes does):
 *
 * - the episode `pending`, `attempt + 1` (its strategy ran, so the next run is a new attempt and
 *   resumes from its newest checkpoint, as a `restart` recovery does), `started_at` and
 *   `executed_by` cleared, a `handed_back` entry appended to `recovery_history`;
 * - its claim `done`, so the next acquire anywhere is a take-over at claim attempt + 1 and every
 *   late write of this run (a step still running past the grace period, a checkpoint, an output)
 *   is refused by its fence;
 * - a new pending trigger request marked `recovered` (never shed or dropped, like recovery's
 *   restart); the one it was dispatched from, if any, completed. One NOTIFY wakes every poller,
 *   so another full node picks it up at once, not at a sweep's interval.
 */
const SQL = `
WITH input AS (
  SELECT * FROM unnest($2::uuid[], $3::text[], $4::int[], $5::bigint[], $6::int[], $9::boolean[])
    AS t(episode_id, claim_key, claim_attempt, request_id, steps_done, in_row)
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
handed AS (
  UPDATE cyclium_episodes e
     SET status = 'pending', attempt = e.attempt + 1, started_at = NULL, executed_by = NULL,
         lease_until = NULL, queued_by = NULL, queued_at = NULL, updated_at = now(),
         recovery_history = e.recovery_history || jsonb_build_array(jsonb_build_object(
           'at', now(),
           'node', $1::text,
           'policy', 'hand_back',
           'outcome', 'handed_back',
           'steps_done', f.steps_done,
           'attempt', e.attempt + 1
         ))
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
-- The request it was dispatched from did its job (it ran): completed, and a new one owns the
-- handed-back episode, so the requests' TTL (counted from inserted_at) starts afresh for it.
request_completed AS (
  UPDATE cyclium_trigger_requests r
     SET status = 'completed', updated_at = now()
    FROM fence f JOIN handed h ON h.id = f.episode_id
   WHERE r.id = ANY(ARRAY(SELECT request_id FROM fence WHERE request_id IS NOT NULL))
     AND r.id = f.request_id AND r.episode_id = f.episode_id
     AND r.status = 'claimed' AND r.claimed_by = $1
  RETURNING r.episode_id
),
requested AS (
  INSERT INTO cyclium_trigger_requests
    (episode_id, actor_id, expectation_id, source_node, source_stack, source_env, status, opts)
  SELECT h.id, h.actor_id, h.expectation_id, $1, h.source_stack, h.source_env, 'pending',
         '{"recovered":true}'::jsonb
    FROM handed h
   ORDER BY h.inserted_at, h.id
  RETURNING episode_id
),
notified AS (
  SELECT CASE WHEN count(*) > 0 THEN pg_notify($7, $8) END AS sent
    FROM requested
)
SELECT i.episode_id::text AS input_id,
       (f.episode_id IS NOT NULL) AS held,
       (h.id IS NOT NULL) AS handed,
       (SELECT count(*) FROM request_completed) AS completed_requests,
       (SELECT sent FROM notified) AS notified
  FROM input i
  LEFT JOIN fence f ON f.episode_id = i.episode_id
  LEFT JOIN handed h ON h.id = i.episode_id`;

interface Row {
  input_id: string;
  held: boolean;
  handed: boolean;
}

/**
 * One outcome per input, in input order. Episode ids must be distinct. `wake`: the NOTIFY that
 * wakes trigger-request pollers (channel and payload), sent on commit.
 */
export async function handBackEpisodes(
  options: {
    node: string;
    episodes: readonly EpisodeHandBack[];
    wake: { channel: string; payload: string };
  },
  db: Queryable,
): Promise<HandBackEpisodesOutcome[]> {
  const { episodes } = options;
  if (episodes.length === 0) return [];
  for (const { episodeId, fence } of episodes) {
    if (fence.owner !== options.node) {
      throw new Error(
        `hand-back of ${episodeId}: its fence names ${fence.owner}, not ${options.node}`,
      );
    }
  }
  const { rows } = await db.query<Row>(SQL, [
    options.node,
    episodes.map((e) => e.episodeId),
    episodes.map((e) => e.fence.dedupeKey),
    episodes.map((e) => e.fence.attempt),
    episodes.map((e) => e.triggerRequestId ?? null),
    episodes.map((e) => e.stepsDone),
    options.wake.channel,
    options.wake.payload,
    episodes.map((e) => e.fence.episodeId !== undefined),
  ]);
  const byId = new Map(rows.map((row) => [row.input_id, row]));
  return episodes.map(({ episodeId }): HandBackEpisodesOutcome => {
    const row = byId.get(episodeId);
    if (row === undefined || !row.held) return { kind: "fenced" };
    return row.handed ? { kind: "handed_back" } : { kind: "not_running" };
  });
}
