import type { ClaimFence } from "../claims/index";
import { withTransaction, type Connectable } from "../db/index";
import { fenceCte } from "../episodes/fence-cte";
import type { JournalStep } from "../episodes/index";
import { TRIGGER_REQUESTS_CHANNEL } from "../deferred/trigger-request";
import type { EpisodeWaitRequest } from "./episode-wait";

export interface ParkEpisodeOptions {
  episodeId: string;
  /** The runner's claim or the episode's own lease; null when claims are off. */
  fence: ClaimFence | null;
  node: string;
  /** The step that returned the wait, journaled with the park (`outcome = 'wait'`). */
  step: JournalStep & { attempt: number };
  /** The state the episode resumes from, saved as checkpoint `step.stepNo`. */
  checkpoint: { phase: string; schemaVersion: number; state: unknown };
  wait: EpisodeWaitRequest;
  /** Wall time used so far: the resumed run goes on from it (waiting does not count). */
  wallUsedMs: number;
  /** The trigger request this run was dispatched from: completed with the park. */
  triggerRequestId?: string | undefined;
}

export type ParkEpisodeOutcome =
  /** `wakeAt`: when its request is due (null: only a signal wakes it). */
  | { kind: "waiting"; wakeAt: Date | null; dueNow: boolean }
  /** No longer running (cancelled meanwhile): nothing written but the release. */
  | { kind: "not_running" }
  /** The claim or lease is not this run's any more: nothing written at all. */
  | { kind: "fenced" };

const PARAMS = 20;

// The fenced half: journal, usage, checkpoint, the wait, status `waiting`, the lease and the claim
// released, the dispatching request completed. One statement, so a zombie writes none of it.
const PARK_SQL = (fence: string): string => `
WITH ${fence},
-- Found by the fault suite's SIGSTOP: a node frozen between this statement and the next held the
-- episode's row lock (and its claim's) until it woke, 129 s, and recovery could not take the
-- episode meanwhile. A session idle in this transaction for 5 s is ended by the server instead:
-- the park rolls back, the locks go, and the episode is recovered like any a frozen node held.
idle AS (SELECT set_config('idle_in_transaction_session_timeout', '5000', true) AS timeout),
step AS (
  INSERT INTO cyclium_episode_steps
    (episode_id, attempt, step_no, outcome, data, turns, tokens, duration_ms, node)
  SELECT $1, $2, $3, 'wait', $4::jsonb, $5, $6, $7, $8 FROM fence
  ON CONFLICT (episode_id, attempt, step_no) DO NOTHING
  RETURNING turns, tokens
),
parked AS (
  UPDATE cyclium_episodes e
     SET status = 'waiting', lease_until = NULL, updated_at = now(),
         turns_used = e.turns_used + COALESCE((SELECT turns FROM step), 0),
         tokens_used = e.tokens_used + COALESCE((SELECT tokens FROM step), 0)
   WHERE e.id = $1 AND e.status = 'running' AND EXISTS (SELECT 1 FROM fence)
  RETURNING e.id, e.attempt
),
checkpoint AS (
  INSERT INTO cyclium_episode_checkpoints (episode_id, number, phase, schema_version, state)
  SELECT $1, $3, $9, $10, $11::jsonb FROM parked
  ON CONFLICT (episode_id, number) DO UPDATE
     SET phase = EXCLUDED.phase, schema_version = EXCLUDED.schema_version,
         state = EXCLUDED.state, inserted_at = now()
),
waits AS (
  INSERT INTO cyclium_episode_waits
    (episode_id, kind, signal, step_no, attempt, wall_used_ms, since, wake_at, woken_at)
  SELECT $1, $12, $13, $3, p.attempt, $14, now(),
         COALESCE($15::timestamptz, now() + make_interval(secs => $16::float8 / 1000.0)), NULL
    FROM parked p
  ON CONFLICT (episode_id) DO UPDATE
     SET kind = EXCLUDED.kind, signal = EXCLUDED.signal, step_no = EXCLUDED.step_no,
         attempt = EXCLUDED.attempt, wall_used_ms = EXCLUDED.wall_used_ms, since = now(),
         wake_at = EXCLUDED.wake_at, woken_at = NULL
  RETURNING wake_at
),
released AS (
  UPDATE cyclium_work_claims c
     SET state = 'done', updated_at = now()
   WHERE $18::boolean AND EXISTS (SELECT 1 FROM parked) AND c.dedupe_key = $19 AND c.owner_node = $8 AND c.attempt = $20
     AND c.state = 'claimed'
  RETURNING c.dedupe_key
),
completed AS (
  UPDATE cyclium_trigger_requests r
     SET status = 'completed', completed_at = now(), updated_at = now()
   WHERE r.id = $17::bigint AND r.status = 'claimed' AND r.claimed_by = $8
     AND EXISTS (SELECT 1 FROM fence)
  RETURNING r.id
)
SELECT EXISTS (SELECT 1 FROM fence) AS held, EXISTS (SELECT 1 FROM parked) AS parked,
       (SELECT timeout FROM idle) AS idle_timeout,
       (SELECT count(*)::int FROM released) AS released,
       (SELECT count(*)::int FROM completed) AS completed`;

// The wake-up's request, in a second statement of the same transaction: its snapshot sees a
// signal whose sender held the episode row while this transaction waited for it (deliverSignal
// locks the row first), so a signal sent during the park is never missed. Due at once when an
// unconsumed signal of the awaited name is there; none when nothing but a signal can wake it.
const REQUEST_SQL = `
WITH due AS (
  SELECT e.id, e.actor_id, e.expectation_id, e.source_stack, e.source_env, w.step_no,
         CASE WHEN w.kind = 'signal' AND EXISTS (
                SELECT 1 FROM cyclium_signals s
                 WHERE s.episode_id = e.id AND s.name = w.signal AND s.consumed_at IS NULL)
              THEN now() ELSE w.wake_at END AS run_at,
         COALESCE((SELECT r0.priority FROM cyclium_trigger_requests r0
                    WHERE r0.id = $3::bigint), 0) AS priority
    FROM cyclium_episodes e JOIN cyclium_episode_waits w ON w.episode_id = e.id
   WHERE e.id = $1 AND e.status = 'waiting'
),
inserted AS (
  INSERT INTO cyclium_trigger_requests
    (episode_id, actor_id, expectation_id, source_node, source_stack, source_env, status, opts,
     run_at, priority, claim_priority)
  SELECT d.id, d.actor_id, d.expectation_id, $2, d.source_stack, d.source_env, 'pending',
         ${wakeOptsSql("d.step_no")}, d.run_at, d.priority, d.priority
    FROM due d
   WHERE d.run_at IS NOT NULL
  RETURNING run_at
)
SELECT i.run_at, i.run_at <= now() AS due_now,
       (SELECT count(pg_notify('${TRIGGER_REQUESTS_CHANNEL}', '{}')) FROM inserted) AS woken
  FROM (SELECT 1) one LEFT JOIN inserted i ON true`;

/**
 * A wake-up request's `opts`: `recovered` (a full queue never drops it) and `resume: { wait }`,
 * the waiting step, which reaches the runner on every start path (the poller's claim or its
 * in-row start), so it resumes from the wait whatever status the row it is handed shows.
 */
export function wakeOptsSql(stepNo: string): string {
  return `jsonb_build_object('recovered', true, 'resume', jsonb_build_object('wait', ${stepNo}))`;
}

/** True for the `resume` of a wake-up request's opts (wakeOptsSql). */
export function isWakeResume(resume: unknown): boolean {
  return (
    typeof resume === "object" &&
    resume !== null &&
    typeof (resume as { wait?: unknown }).wait === "number"
  );
}

/**
 * Parks a running episode `waiting` (SPEC section 17) in one transaction: the fenced statement
 * journals the step, saves the checkpoint it resumes from, records the wait, frees the lease (in
 * the row) and the claim (its row `done`) and completes the dispatching request; the second
 * inserts the request that wakes it, due at `wake_at` (the DueTimer of every poller in scope arms
 * for it on the NOTIFY), and `recovered` so a full queue never drops it. `opts` carries no
 * marker: the poller hands the runner the episode as claimed, `waiting`, and that is the mark.
 */
export async function parkEpisode(
  options: ParkEpisodeOptions,
  db: Connectable,
): Promise<ParkEpisodeOutcome> {
  const { step, wait, fence } = options;
  const cte = fenceCte(fence, PARAMS + 1);
  const claimRow = fence !== null && fence.episodeId === undefined;
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.query<{
      held: boolean;
      parked: boolean;
      released: number;
      completed: number;
    }>(PARK_SQL(cte.sql), [
      options.episodeId,
      step.attempt,
      step.stepNo,
      JSON.stringify(step.data ?? null),
      step.turns,
      step.tokens,
      Math.round(step.durationMs),
      options.node,
      options.checkpoint.phase,
      options.checkpoint.schemaVersion,
      JSON.stringify(options.checkpoint.state ?? null),
      wait.kind,
      wait.kind === "signal" ? wait.signal : null,
      Math.round(options.wallUsedMs),
      wait.kind === "sleep" && wait.until !== undefined ? wait.until : null,
      wait.kind === "sleep" ? (wait.delayMs ?? null) : wait.timeoutMs,
      options.triggerRequestId ?? null,
      claimRow,
      fence?.dedupeKey ?? null,
      fence?.attempt ?? null,
      ...cte.values,
    ]);
    const row = rows[0];
    if (row?.held !== true) return { kind: "fenced" };
    if (!row.parked) return { kind: "not_running" };
    const request = await tx.query<{ run_at: Date | null; due_now: boolean | null }>(REQUEST_SQL, [
      options.episodeId,
      options.node,
      options.triggerRequestId ?? null,
    ]);
    const due = request.rows[0];
    return { kind: "waiting", wakeAt: due?.run_at ?? null, dueNow: due?.due_now === true };
  });
}
