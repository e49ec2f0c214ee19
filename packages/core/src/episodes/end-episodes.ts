import type { ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";
import type { Episode, EpisodeRow } from "./episode-row";
import type { JournalStep } from "./journal-step";

/** One episode's end, as its runner knows it when the step loop is over. */
export interface EpisodeEnd {
  episodeId: string;
  /** Held since the start; null when claims are off (nothing fenced, nothing released). */
  fence: ClaimFence | null;
  status: "completed" | "failed";
  result?: unknown;
  errorClass?: string | null;
  errorMessage?: string | null;
  /** A thrown error's stack, kept with the attempt's error (cyclium_episode_attempts). */
  errorStack?: string | null;
  /** The step that ended the episode, journaled with its end. */
  finalStep?: JournalStep & {
    /** The journal's attempt column (the claim's attempt). */
    attempt: number;
  };
  /** The trigger request this node dispatched the episode from: marked completed with it. */
  triggerRequestId?: string;
  /**
   * A NOTIFY sent (on commit) when the episode really ends: the episode event, as the bus's
   * inlineNotification built it (under the NOTIFY limit; a larger event is published after).
   */
  notify?: { channel: string; payload: string };
}

/**
 * What the end statement returns of an ended episode: the columns the database decides (usage
 * summed with the final step, timestamps, a phase a checkpoint moved) and the status. The runner
 * knows the rest (it wrote them or read them at the start), so the reply carries 10 columns instead
 * of the row's 27 (input, result and error message included) per episode.
 */
export type EndedEpisode = Pick<
  Episode,
  | "id"
  | "status"
  | "phase"
  | "errorClass"
  | "attempt"
  | "turnsUsed"
  | "tokensUsed"
  | "startedAt"
  | "finishedAt"
  | "updatedAt"
>;

export type EndEpisodesOutcome =
  /**
   * `alreadyEnded`: a resend found its own earlier end committed (its reply was lost); nothing was
   * written again and the NOTIFY was not sent again (it went out with that first commit).
   */
  | { kind: "ended"; episode: EndedEpisode; alreadyEnded?: true }
  /** No longer pending or running (e.g. cancelled meanwhile): nothing written but the release. */
  | { kind: "not_running" }
  /** The claim is not this attempt's any more: nothing written at all. */
  | { kind: "fenced" };

const ENDED_COLUMNS = [
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

function endedColumns(alias: string): string {
  return ENDED_COLUMNS.map((column) => `${alias}.${column}`).join(", ");
}

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
 * Every table is reached through `= ANY(ARRAY(...))` of the batch's keys: joined to unnest() of
 * unknown size, the planner hash-joined sequential scans of the claims and requests tables, which
 * grow by a row per episode (22.6 ms per batch of 24 after 20,000 episodes, 113 buffers each).
 */
const SQL = `
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
held AS (
  SELECT i.episode_id
    FROM cyclium_work_claims c JOIN input i
      ON c.dedupe_key = i.claim_key AND c.owner_node = i.claim_owner
     AND c.attempt = i.claim_attempt
   WHERE c.dedupe_key = ANY($22::text[]) AND c.state = 'claimed' AND NOT i.in_row
   FOR SHARE OF c
),
-- The episode's own lease (SPEC section 4): the fence is the row's owner and attempt.
held_in_row AS (
  SELECT i.episode_id
    FROM cyclium_episodes e JOIN input i
      ON e.id = i.episode_id AND e.executed_by = i.claim_owner AND e.attempt = i.claim_attempt
   WHERE e.id = ANY($2::uuid[]) AND i.in_row AND e.lease_until IS NOT NULL
   FOR SHARE OF e
),
fence AS (
  SELECT i.* FROM input i
   WHERE i.claim_key IS NULL OR i.episode_id IN (SELECT episode_id FROM held)
      OR i.episode_id IN (SELECT episode_id FROM held_in_row)
),
-- A resent end whose first send committed with its reply lost: the claim is already done at
-- this very attempt, which only this runner's own end (or its release) writes. In the row: the
-- lease cleared at this owner and attempt, with the status this end writes.
already AS (
  SELECT i.episode_id
    FROM cyclium_work_claims c JOIN input i
      ON c.dedupe_key = i.claim_key AND c.owner_node = i.claim_owner
     AND c.attempt = i.claim_attempt
   WHERE c.dedupe_key = ANY($22::text[]) AND c.state = 'done' AND NOT i.in_row
  UNION ALL
  SELECT i.episode_id
    FROM cyclium_episodes e JOIN input i
      ON e.id = i.episode_id AND e.executed_by = i.claim_owner AND e.attempt = i.claim_attempt
   WHERE e.id = ANY($2::uuid[]) AND i.in_row AND e.lease_until IS NULL AND e.status = i.status
     AND e.finished_at IS NOT NULL
),
steps AS (
  INSERT INTO cyclium_episode_steps
    (episode_id, attempt, step_no, outcome, data, turns, tokens, duration_ms, node)
  SELECT episode_id, journal_attempt, step_no, outcome, data, turns, tokens, duration_ms, $1
    FROM fence WHERE step_no IS NOT NULL
  ON CONFLICT (episode_id, attempt, step_no) DO NOTHING
  RETURNING episode_id, turns, tokens
),
ended AS (
  UPDATE cyclium_episodes e
     SET status = f.status,
         result = f.result,
         error_class = f.error_class,
         error_message = f.error_message,
         turns_used = e.turns_used + COALESCE(s.turns, 0),
         tokens_used = e.tokens_used + COALESCE(s.tokens, 0),
         executed_by = $1,
         lease_until = NULL,
         finished_at = now(),
         updated_at = now()
    FROM fence f LEFT JOIN steps s ON s.episode_id = f.episode_id
   WHERE e.id = ANY(ARRAY(SELECT episode_id FROM fence))
     AND e.id = f.episode_id AND e.status IN ('pending', 'running')
  RETURNING ${endedColumns("e")}
),
-- A failed end keeps its attempt's error: the episode's own columns are cleared by a retry.
attempt_errors AS (
  INSERT INTO cyclium_episode_attempts
    (episode_id, attempt, outcome, error_class, error_message, error_stack, node)
  SELECT x.id, x.attempt, 'failed', COALESCE(x.error_class, 'Error'), f.error_message,
         f.error_stack, $1
    FROM ended x JOIN fence f ON f.episode_id = x.id
   WHERE x.status = 'failed'
  ON CONFLICT (episode_id, attempt) DO NOTHING
),
released AS (
  UPDATE cyclium_work_claims c
     SET state = 'done', updated_at = now()
    FROM fence f
   WHERE c.dedupe_key = ANY(ARRAY(SELECT claim_key FROM fence WHERE NOT in_row))
     AND c.dedupe_key = f.claim_key AND c.owner_node = f.claim_owner
     AND c.attempt = f.claim_attempt AND c.state = 'claimed'
  RETURNING c.dedupe_key
),
-- The release of an episode's own lease when it ended otherwise meanwhile (ended clears the rest).
released_in_row AS (
  UPDATE cyclium_episodes e
     SET lease_until = NULL
    FROM fence f
   WHERE e.id = ANY(ARRAY(SELECT episode_id FROM fence WHERE in_row))
     AND e.id = f.episode_id AND e.status NOT IN ('pending', 'running')
     AND e.lease_until IS NOT NULL
),
completed AS (
  UPDATE cyclium_trigger_requests r
     SET status = 'completed', completed_at = now(), updated_at = now()
    FROM fence f
   WHERE r.id = ANY(ARRAY(SELECT request_id FROM fence))
     AND r.id = f.request_id AND r.status = 'claimed' AND r.claimed_by = $1
  RETURNING r.id
),
-- One notification per ended episode, each the plain event a publish sends (every node, of this
-- release or an earlier one, reads it), in the batch's order: the subquery's ORDER BY keeps it from
-- being flattened, so the aggregate calls pg_notify row by row in that order. Still one statement
-- and one commit for the batch, as PgBus's publishes of one turn (notifyMany); PostgreSQL delivers
-- a transaction's notifications together, so each listener is woken once for them.
notified AS (
  SELECT count(pg_notify(n.notify_channel, n.notify_payload)) AS sent
    FROM (SELECT f.notify_channel, f.notify_payload
            FROM fence f JOIN ended x ON x.id = f.episode_id
           WHERE f.notify_channel IS NOT NULL
           ORDER BY f.ord) n
),
echoed AS (
  SELECT ${endedColumns("e")}
    FROM cyclium_episodes e JOIN input i ON i.episode_id = e.id
   WHERE e.id = ANY(ARRAY(SELECT episode_id FROM already))
     AND e.status = i.status AND e.executed_by = $1
)
SELECT i.episode_id::text AS input_id,
       (f.episode_id IS NOT NULL OR a.episode_id IS NOT NULL) AS held,
       (a.episode_id IS NOT NULL) AS already_ended,
       (SELECT sent FROM notified) AS notified,
       mine.*
  FROM input i
  LEFT JOIN fence f ON f.episode_id = i.episode_id
  LEFT JOIN already a ON a.episode_id = i.episode_id
  LEFT JOIN (SELECT * FROM ended UNION ALL SELECT * FROM echoed) AS mine
    ON mine.id = i.episode_id`;

type EndedRow = Pick<EpisodeRow, (typeof ENDED_COLUMNS)[number]>;
type Row = Partial<EndedRow> & { input_id: string; held: boolean; already_ended: boolean };

function toEndedEpisode(row: EndedRow): EndedEpisode {
  return {
    id: row.id,
    status: row.status,
    phase: row.phase,
    errorClass: row.error_class,
    attempt: row.attempt,
    turnsUsed: row.turns_used,
    tokensUsed: Number(row.tokens_used),
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    updatedAt: row.updated_at,
  };
}

/** One outcome per end, in input order. Episode ids must be distinct. */
export async function endEpisodes(
  options: { node: string; ends: readonly EpisodeEnd[] },
  db: Queryable,
): Promise<EndEpisodesOutcome[]> {
  const { ends } = options;
  if (ends.length === 0) return [];
  const column = <T>(pick: (end: EpisodeEnd) => T) => ends.map(pick);
  const { rows } = await db.query<Row>(SQL, [
    options.node,
    column((e) => e.episodeId),
    column((e) => e.fence?.dedupeKey ?? null),
    column((e) => e.fence?.owner ?? null),
    column((e) => e.fence?.attempt ?? null),
    column((e) => e.status),
    column((e) => (e.result === undefined ? null : JSON.stringify(e.result))),
    column((e) => e.errorClass ?? null),
    column((e) => e.errorMessage ?? null),
    column((e) => e.finalStep?.attempt ?? null),
    column((e) => e.finalStep?.stepNo ?? null),
    column((e) => e.finalStep?.outcome ?? null),
    column((e) =>
      e.finalStep === undefined || e.finalStep.data === undefined
        ? null
        : JSON.stringify(e.finalStep.data),
    ),
    column((e) => e.finalStep?.turns ?? null),
    column((e) => e.finalStep?.tokens ?? null),
    column((e) => (e.finalStep === undefined ? null : Math.round(e.finalStep.durationMs))),
    column((e) => e.triggerRequestId ?? null),
    column((e) => e.notify?.channel ?? null),
    column((e) => e.notify?.payload ?? null),
    column((e) => e.errorStack ?? null),
    column((e) => e.fence?.episodeId !== undefined),
    // The claim-row keys alone: an episode holding its own lease costs no probe of the claims
    // table's key index (three per end otherwise: held, already, released).
    column((e) => (e.fence?.episodeId === undefined ? (e.fence?.dedupeKey ?? null) : null)),
  ]);
  const byId = new Map(rows.map((row) => [row.input_id, row]));
  return ends.map(({ episodeId }): EndEpisodesOutcome => {
    const row = byId.get(episodeId);
    if (row === undefined || !row.held) return { kind: "fenced" };
    if (row.id === undefined || row.id === null) return { kind: "not_running" };
    const episode = toEndedEpisode(row as EndedRow);
    return row.already_ended
      ? { kind: "ended", episode, alreadyEnded: true }
      : { kind: "ended", episode };
  });
}
