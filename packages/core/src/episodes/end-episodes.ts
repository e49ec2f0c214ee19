import type { ClaimFence } from "../claims/index";
import { isUniqueViolation, type Queryable } from "../db/index";
import type { Episode, EpisodeRow } from "./episode-row";
import { endSql, type ENDED_COLUMNS } from "./end-episodes-sql";
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
   * A failed attempt with attempts left (SPEC section 16): instead of `failed` the episode goes
   * back to `pending` at attempt + 1, its error kept with the attempt, with a new request due in
   * this many ms. No episode event is sent: it has not ended.
   */
  retryDelayMs?: number;
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

/** The step journal's key, (episode_id, attempt, step_no). */
const JOURNAL_KEY = "cyclium_episode_steps_pkey";

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

/**
 * Ends many episodes in one statement and one commit, each fenced on its claim attempt or its own
 * lease: journal, status, release, request and NOTIFYs (the statement: end-episodes-sql.ts). One
 * outcome per end, in input order. Episode ids must be distinct.
 */
export async function endEpisodes(
  options: { node: string; ends: readonly EpisodeEnd[] },
  db: Queryable,
): Promise<EndEpisodesOutcome[]> {
  const { ends } = options;
  if (ends.length === 0) return [];
  const column = <T>(pick: (end: EpisodeEnd) => T) => ends.map(pick);
  const parts = {
    claimRows: ends.some((e) => e.fence !== null && e.fence.episodeId === undefined),
    inRow: ends.some((e) => e.fence?.episodeId !== undefined),
    requests: ends.some((e) => e.triggerRequestId !== undefined),
    failures: ends.some((e) => e.status === "failed"),
    retries: ends.some((e) => e.status === "failed" && e.retryDelayMs !== undefined),
    journalConflicts: ends.some((e) => e.fence === null),
  };
  const params = [
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
    ...(parts.retries
      ? [column((e) => (e.status === "failed" ? (e.retryDelayMs ?? null) : null))]
      : []),
  ];
  // A fenced end's final step cannot be in the journal yet (endSql's journalConflicts). Should
  // one be anyway, the statement failed whole, nothing of it written: sent again, the journal
  // keeps its entry and the end goes on, as a speculative insert would have done.
  const { rows } = await db.query<Row>(endSql(parts), params).catch((error: unknown) => {
    if (parts.journalConflicts || !isUniqueViolation(error, JOURNAL_KEY)) throw error;
    return db.query<Row>(endSql({ ...parts, journalConflicts: true }), params);
  });
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
