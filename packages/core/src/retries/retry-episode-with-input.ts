import type { ActorRegistry } from "../actors/actor-registry";
import {
  validateExpectationInput,
  type InputIssue,
} from "../actors/input-schemas/validate-expectation-input";
import type { Queryable } from "../db/index";
import { retryEpisode } from "./retry-episodes";
import type { RetryEpisodeResult } from "../episodes/commands/episode-command-result";
import { inTransaction } from "../episodes/commands/in-transaction";
import { episodeColumns, toEpisode, type EpisodeRow } from "../episodes/episode-row";

export interface RetryEpisodeWithInputOptions {
  episodeId: string;
  /** The edited input, checked against the expectation's input schema before anything changes. */
  input: unknown;
  /** Where the expectation's schema comes from (the deployment's actors). */
  registry: Pick<ActorRegistry, "expectation">;
  /** Who asked, recorded in `recovery_history` as node `operator:{by}`. */
  by: string;
  sourceNode: string;
}

export type RetryEpisodeWithInputResult =
  | RetryEpisodeResult
  /** The input does not pass the expectation's schema: nothing was changed. */
  | { kind: "invalid_input"; episodeId: string; issues: InputIssue[] };

const LOCK = `SELECT ${episodeColumns()} FROM cyclium_episodes WHERE id = $1 FOR UPDATE`;
const SET_INPUT = `UPDATE cyclium_episodes SET input = $2::jsonb, updated_at = now() WHERE id = $1`;

/**
 * Retry with edited input: the episode's input is replaced by `input` (its schema's parsed
 * output, defaults applied) and it runs again as its next attempt, like `retryEpisode`, in one
 * transaction. The row is locked first, so the status checked is the status retried; an input
 * the schema refuses, or an episode that is not failed or cancelled, changes nothing. The
 * previous attempt's error stays in cyclium_episode_attempts.
 */
export async function retryEpisodeWithInput(
  options: RetryEpisodeWithInputOptions,
  db: Queryable,
): Promise<RetryEpisodeWithInputResult> {
  const { episodeId } = options;
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query<EpisodeRow>(LOCK, [episodeId]);
    const row = rows[0];
    if (row === undefined) return { kind: "not_found", episodeId };
    const episode = toEpisode(row);
    const retryable = episode.status === "failed" || episode.status === "cancelled";
    if (!retryable || episode.archivedAt !== null) return { kind: "conflict", episodeId, episode };
    const checked = validateExpectationInput({
      registry: options.registry,
      actorId: episode.actorId,
      expectationId: episode.expectationId,
      input: options.input,
    });
    if (checked.kind === "invalid") {
      return { kind: "invalid_input", episodeId, issues: checked.issues };
    }
    // unknown_expectation: the deployment no longer declares it, so there is no schema to check
    // against; the runner decides (it fails an unknown actor with its own error class).
    const input = checked.kind === "valid" ? checked.input : options.input;
    await tx.query(SET_INPUT, [episodeId, JSON.stringify(input ?? {})]);
    return retryEpisode({ episodeId, by: options.by, sourceNode: options.sourceNode }, tx);
  });
}
