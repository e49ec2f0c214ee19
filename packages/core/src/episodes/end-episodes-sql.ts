// The arms of endEpisodes' statement (end-episodes.ts), each sent only when its batch needs it.

export const ENDED_COLUMNS = [
  "id",
  "status",
  "phase",
  "error_class",
  "attempt",
  "turns_used",
  "tokens_used",
  "started_at",
  "finished_at",
  "updated_at",
] as const;

/** The ended columns' places in a row for an episode that did not end here. */
const NO_ENDED_COLUMNS = ENDED_COLUMNS.map(() => "NULL").join(", ");

function endedColumns(alias: string): string {
  return ENDED_COLUMNS.map((column) => `${alias}.${column}`).join(", ");
}

/** Which arms of the end statement a batch needs. */
export interface EndSqlParts {
  /** Some end is fenced on a claim row. */
  claimRows: boolean;
  /** Some end is fenced on its episode's own lease (SPEC section 4). */
  inRow: boolean;
  /** Some end completes a trigger request. */
  requests: boolean;
  /** Some end fails its episode (its attempt's error is kept). */
  failures: boolean;
  /**
   * Some failed end is retried (SPEC section 16): its episode goes back to pending at attempt + 1
   * with a new request due after its backoff; $22 holds the per-end delays (ms, null for an
   * end that is final).
   */
  retries: boolean;
  /**
   * Journal the final steps with `ON CONFLICT DO NOTHING`. A fenced end cannot find its
   * final step journaled already: only its own end journals it, and a resend after a commit is
   * fenced out (its lease or claim is released). A speculative insert costs one more WAL record
   * per row (HEAP_CONFIRM, 48 bytes an item), so it is used only for a batch with an unfenced
   * end (claims off) and for the resend of a batch that met the journal's key anyway.
   */
  journalConflicts: boolean;
}

// Each of the batch's rows is probed by key from its input row (LATERAL): joined to the input
// CTE, whose size the planner cannot know, the rows were matched by rescanning the whole input
// once per row, quadratic in the batch (48 x 48 row visits per join at the bench's batch of 48).
const HELD = `held AS (
  SELECT i.episode_id
    FROM input i
    CROSS JOIN LATERAL (
      SELECT 1 FROM cyclium_work_claims c
       WHERE c.dedupe_key = i.claim_key AND c.owner_node = i.claim_owner
         AND c.attempt = i.claim_attempt AND c.state = 'claimed'
       FOR SHARE
    ) c
   WHERE i.claim_key IS NOT NULL AND NOT i.in_row
),
`;

const HELD_IN_ROW = `-- The episode's own lease (SPEC section 4): the fence is the row's owner and attempt.
held_in_row AS (
  SELECT i.episode_id
    FROM input i
    CROSS JOIN LATERAL (
      SELECT 1 FROM cyclium_episodes e
       WHERE e.id = i.episode_id AND e.executed_by = i.claim_owner
         AND e.attempt = i.claim_attempt AND e.lease_until IS NOT NULL
       FOR SHARE
    ) e
   WHERE i.in_row
),
`;

const CLAIM_ROW_ALREADY = `  SELECT i.episode_id
    FROM input i
    CROSS JOIN LATERAL (
      SELECT 1 FROM cyclium_work_claims c
       WHERE c.dedupe_key = i.claim_key AND c.owner_node = i.claim_owner
         AND c.attempt = i.claim_attempt AND c.state = 'done'
    ) c
   WHERE i.claim_key IS NOT NULL AND NOT i.in_row`;

// Each row by primary key, fenced (OFFSET 0) from the tests after it: with statistics taken while
// few episodes had ended, PostgreSQL read `finished_at IS NOT NULL` as a reason to scan the charts'
// partial index, every ended episode of the table, at each end (measured: the end's server time
// per item 0.08 -> 0.19-0.25 ms over a 20,000-item drain of analyzed tables).
const IN_ROW_ALREADY = `  SELECT i.episode_id
    FROM input i
    CROSS JOIN LATERAL (
      SELECT executed_by, attempt, lease_until, status, finished_at
        FROM cyclium_episodes WHERE id = i.episode_id OFFSET 0
    ) e
   WHERE i.in_row AND e.executed_by = i.claim_owner AND e.attempt = i.claim_attempt
     AND e.lease_until IS NULL AND e.status = i.status AND e.finished_at IS NOT NULL`;

/**
 * A failed end keeps its attempt's error: the episode's own columns are cleared by a retry. A
 * retried end's row is already at the next attempt, so its error is the previous one's.
 */
function attemptErrors(retries: boolean): string {
  const attempt = retries
    ? "CASE WHEN x.status = 'pending' THEN x.attempt - 1 ELSE x.attempt END"
    : "x.attempt";
  const which = retries
    ? "f.status = 'failed' AND x.status IN ('failed', 'pending')"
    : "x.status = 'failed'";
  return `attempt_errors AS (
  INSERT INTO cyclium_episode_attempts
    (episode_id, attempt, outcome, error_class, error_message, error_stack, node)
  SELECT x.id, ${attempt}, 'failed', COALESCE(x.error_class, 'Error'), f.error_message,
         f.error_stack, $1
    FROM ended x JOIN fence f ON f.episode_id = x.id
   WHERE ${which}
  ON CONFLICT (episode_id, attempt) DO NOTHING
),
`;
}

/** The ended columns a retry rewrites, and how; a final end keeps the plain assignments. */
function endedSet(retries: boolean): string {
  if (!retries) {
    return `status = f.status,
         executed_by = $1,
         finished_at = now(),`;
  }
  const final = "ri.retry_delay_ms IS NULL";
  return `status = CASE WHEN ${final} THEN f.status ELSE 'pending' END,
         executed_by = CASE WHEN ${final} THEN $1 END,
         finished_at = CASE WHEN ${final} THEN now() END,
         started_at = CASE WHEN ${final} THEN e.started_at END,
         attempt = e.attempt + CASE WHEN ${final} THEN 0 ELSE 1 END,
         queued_by = CASE WHEN ${final} THEN e.queued_by END,
         queued_at = CASE WHEN ${final} THEN e.queued_at END,
         recovery_history = CASE WHEN ${final} THEN e.recovery_history
           ELSE e.recovery_history || jsonb_build_array(jsonb_build_object(
             'at', now(), 'node', $1::text, 'policy', 'retry', 'outcome', 'retry_scheduled',
             'attempt', e.attempt + 1, 'delay_ms', ri.retry_delay_ms)) END,`;
}

/**
 * A retried end's next run (SPEC section 16): a request due after its backoff at the priority the
 * episode had, and one wake-up for the pollers, which arm a timer for its run_at.
 */
const RETRIED = `retried AS (
  INSERT INTO cyclium_trigger_requests
    (episode_id, actor_id, expectation_id, source_node, source_stack, source_env, status, opts,
     run_at, priority, claim_priority)
  SELECT e.id, e.actor_id, e.expectation_id, $1, e.source_stack, e.source_env, 'pending',
         '{}'::jsonb, now() + make_interval(secs => ri.retry_delay_ms / 1000.0),
         COALESCE(r0.priority, 0), COALESCE(r0.priority, 0)
    FROM ended x
    JOIN retry_input ri ON ri.episode_id = x.id
    JOIN fence f ON f.episode_id = x.id
    JOIN cyclium_episodes e ON e.id = x.id
    LEFT JOIN cyclium_trigger_requests r0 ON r0.id = f.request_id
   WHERE x.status = 'pending' AND ri.retry_delay_ms IS NOT NULL
  RETURNING id
),
retry_wake AS (
  SELECT count(pg_notify('cyclium_trigger_requests', '')) AS sent
    FROM (SELECT 1 FROM retried LIMIT 1) one
),
`;

const RELEASED = `released AS (
  UPDATE cyclium_work_claims c
     SET state = 'done', updated_at = now()
    FROM fence f
   WHERE c.dedupe_key = ANY(ARRAY(SELECT claim_key FROM fence WHERE NOT in_row))
     AND c.dedupe_key = f.claim_key AND c.owner_node = f.claim_owner
     AND c.attempt = f.claim_attempt AND c.state = 'claimed'
  RETURNING c.dedupe_key
),
`;

const RELEASED_IN_ROW = `-- The release of an episode's own lease when it ended otherwise meanwhile (ended clears the rest).
released_in_row AS (
  UPDATE cyclium_episodes e
     SET lease_until = NULL
    FROM fence f
   WHERE e.id = ANY(ARRAY(SELECT episode_id FROM fence WHERE in_row))
     AND e.id = f.episode_id AND e.status NOT IN ('pending', 'running')
     AND e.lease_until IS NOT NULL
),
`;

const COMPLETED = `completed AS (
  UPDATE cyclium_trigger_requests r
     SET status = 'completed', completed_at = now(), updated_at = now()
    FROM fence f
   WHERE r.id = ANY(ARRAY(SELECT request_id FROM fence))
     AND r.id = f.request_id AND r.status = 'claimed' AND r.claimed_by = $1
  RETURNING r.id
),
`;

/**
 * Ends many episodes in one statement, each fenced on its claim attempt (FOR SHARE, as the
 * one-episode writes do): the final step-journal entry and its usage, the final status, the claim
 * marked `done`, the trigger request marked `completed` and the episode events' NOTIFYs, all in one
 * commit. One episode at a time this took 5 round trips and 3 commits (a transaction for step,
 * status and event, then the claim, then the request); a batch of 24 now takes 1 and 1.
 *
 * The release and the request follow the fence, not the end: an episode cancelled while it ran
 * still frees its claim and its request, as the runner did before.
 *
 * No table is joined to the input: the fence and the resend check probe each end's row by key
 * from its input row (LATERAL), and the writes reach their rows through `= ANY(ARRAY(...))` of the
 * batch's keys. Joined to unnest() of unknown size, the planner hash-joined sequential scans of
 * the claims and requests tables, which grow by a row per episode (22.6 ms per batch of 24 after
 * 20,000 episodes, 113 buffers each), or rescanned the input once per row.
 *
 * Only the arms a batch needs are sent: a batch whose fences are all the episodes' own leases
 * has no claim-table arm, one without requests or failures none of theirs. Each arm is planned
 * per statement whether it touches a row or not: with the in-row lease, 0.21-0.24 ms of
 * PostgreSQL CPU per item instead of 0.27 with every arm (docs/benchmarks.md, "The episode's own
 * lease").
 */
export function endSql(parts: EndSqlParts): string {
  const held = [
    parts.claimRows ? " OR i.episode_id IN (SELECT episode_id FROM held)" : "",
    parts.inRow ? " OR i.episode_id IN (SELECT episode_id FROM held_in_row)" : "",
  ].join("");
  const already =
    [parts.claimRows ? CLAIM_ROW_ALREADY : "", parts.inRow ? IN_ROW_ALREADY : ""]
      .filter((arm) => arm !== "")
      .join("\n  UNION ALL\n") || "  SELECT NULL::uuid AS episode_id WHERE false";
  const p = {
    held: parts.claimRows ? HELD : "",
    heldInRow: parts.inRow ? HELD_IN_ROW : "",
    fenceHeld: held,
    already,
    attemptErrors: parts.failures ? attemptErrors(parts.retries) : "",
    retryInput: parts.retries
      ? `retry_input AS (
  SELECT * FROM unnest($2::uuid[], $22::int[]) AS r(episode_id, retry_delay_ms)
),
`
      : "",
    retryJoin: parts.retries ? " LEFT JOIN retry_input ri ON ri.episode_id = f.episode_id" : "",
    retried: parts.retries ? RETRIED : "",
    retryWoken: parts.retries ? ",\n       (SELECT sent FROM retry_wake) AS retry_woken" : "",
    noRetryWoken: parts.retries ? ", NULL" : "",
    released: parts.claimRows ? RELEASED : "",
    releasedInRow: parts.inRow ? RELEASED_IN_ROW : "",
    completed: parts.requests ? COMPLETED : "",
    onConflict: parts.journalConflicts
      ? "\n  ON CONFLICT (episode_id, attempt, step_no) DO NOTHING"
      : "",
  };
  return `
WITH input AS (
  SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::int[], $6::text[], $7::jsonb[],
                       $8::text[], $9::text[], $10::int[], $11::int[], $12::text[], $13::jsonb[],
                       $14::int[], $15::int[], $16::int[], $17::bigint[], $18::text[], $19::text[],
                       $20::text[], $21::boolean[])
    WITH ORDINALITY
    AS t(episode_id, claim_key, claim_owner, claim_attempt, status, result,
         error_class, error_message, journal_attempt, step_no, outcome, data,
         turns, tokens, duration_ms, request_id, notify_channel, notify_payload, error_stack,
         in_row, ord)
),
${p.retryInput}${p.held}${p.heldInRow}fence AS (
  SELECT i.* FROM input i
   WHERE i.claim_key IS NULL${p.fenceHeld}
),
-- A resent end whose first send committed with its reply lost: the claim is already done at
-- this very attempt, which only this runner's own end (or its release) writes. In the row: the
-- lease cleared at this owner and attempt, with the status this end writes.
already AS (
${p.already}
),
steps AS (
  INSERT INTO cyclium_episode_steps
    (episode_id, attempt, step_no, outcome, data, turns, tokens, duration_ms, node)
  SELECT episode_id, journal_attempt, step_no, outcome, data, turns, tokens, duration_ms, $1
    FROM fence WHERE step_no IS NOT NULL${p.onConflict}
  RETURNING episode_id
),
ended AS (
  UPDATE cyclium_episodes e
     SET ${endedSet(parts.retries)}
         result = f.result,
         error_class = f.error_class,
         error_message = f.error_message,
         turns_used = e.turns_used + CASE WHEN j.journaled THEN COALESCE(f.turns, 0) ELSE 0 END,
         tokens_used = e.tokens_used + CASE WHEN j.journaled THEN COALESCE(f.tokens, 0) ELSE 0 END,
         lease_until = NULL,
         updated_at = now()
    FROM fence f${p.retryJoin}
    -- The final step's usage counts when this statement journaled it (not when its entry was
    -- there already): IN over the insert's RETURNING is hashed once per statement, where a join
    -- to it rescanned those rows for each episode.
    CROSS JOIN LATERAL (
      SELECT f.episode_id IN (SELECT episode_id FROM steps) AS journaled
    ) j
   WHERE e.id = ANY(ARRAY(SELECT episode_id FROM fence))
     AND e.id = f.episode_id AND e.status IN ('pending', 'running')
  RETURNING ${endedColumns("e")}
),
${p.attemptErrors}${p.retried}${p.released}${p.releasedInRow}${p.completed}-- One notification per ended episode, each the plain event a publish sends (every node, of this
-- release or an earlier one, reads it), in the batch's order: the subquery's ORDER BY keeps it from
-- being flattened, so the aggregate calls pg_notify row by row in that order. Still one statement
-- and one commit for the batch, as PgBus's publishes of one turn (notifyMany); PostgreSQL delivers
-- a transaction's notifications together, so each listener is woken once for them.
notified AS (
  SELECT count(pg_notify(n.notify_channel, n.notify_payload)) AS sent
    FROM (SELECT f.notify_channel, f.notify_payload
            FROM fence f JOIN ended x ON x.id = f.episode_id
           WHERE f.notify_channel IS NOT NULL AND x.status <> 'pending'
           ORDER BY f.ord) n
),
echoed AS (
  SELECT ${endedColumns("e")}
    FROM cyclium_episodes e JOIN input i ON i.episode_id = e.id
   WHERE e.id = ANY(ARRAY(SELECT episode_id FROM already))
     AND e.status = i.status AND e.executed_by = $1
)
-- One row per episode this statement knows about, each by itself: ended here, ended before (a
-- resend), or held but not ended (no longer running). An input row with none is fenced. (Joined
-- to the input, each was found by rescanning a CTE per input row, quadratic in the batch.)
SELECT x.id::text AS input_id, true AS held, false AS already_ended,
       (SELECT sent FROM notified) AS notified${p.retryWoken},
       x.*
  FROM ended x
UNION ALL
SELECT e.id::text, true, true, NULL${p.noRetryWoken}, e.*
  FROM echoed e
UNION ALL
SELECT a.episode_id::text, true, true, NULL${p.noRetryWoken}, ${NO_ENDED_COLUMNS}
  FROM already a
 WHERE a.episode_id NOT IN (SELECT id FROM echoed)
UNION ALL
SELECT f.episode_id::text, true, false, NULL${p.noRetryWoken}, ${NO_ENDED_COLUMNS}
  FROM fence f
 WHERE f.episode_id NOT IN (SELECT id FROM ended)`;
}
