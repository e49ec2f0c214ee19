import type { EpisodeAttemptModel } from "@cyclium/db/models";
import type { FieldsOf, Narrow, RowOf } from "../../db/row-of";

/**
 * `cyclium_episode_attempts.outcome`: how an attempt that did not complete ended. `failed`: its
 * run ended in an error (the strategy's, a budget, an unknown actor). `orphaned`: its node
 * stopped mid-run and recovery failed or restarted the episode.
 */
export const ATTEMPT_OUTCOMES = ["failed", "orphaned"] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** One attempt's error, as the episode page's attempt timeline shows it. */
export type EpisodeAttempt = Narrow<FieldsOf<EpisodeAttemptModel>, { outcome: AttemptOutcome }>;
export type EpisodeAttemptRow = Narrow<RowOf<EpisodeAttemptModel>, { outcome: AttemptOutcome }>;

export const EPISODE_ATTEMPT_COLUMNS =
  "id, episode_id, attempt, outcome, error_class, error_message, error_stack, node, inserted_at";

export function toEpisodeAttempt(row: EpisodeAttemptRow): EpisodeAttempt {
  return {
    id: row.id,
    episodeId: row.episode_id,
    attempt: row.attempt,
    outcome: row.outcome,
    errorClass: row.error_class,
    errorMessage: row.error_message,
    errorStack: row.error_stack,
    node: row.node,
    insertedAt: row.inserted_at,
  };
}
