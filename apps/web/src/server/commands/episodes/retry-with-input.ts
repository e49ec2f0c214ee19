import type { ActorRegistry, Queryable } from "@cyclium/core/console";
import { retryEpisodeWithInput, assertNever, CycliumError } from "@cyclium/core/console";
import { describeInputIssues } from "../../errors/input-issues";
import type { TEpisodeCommandResult } from "./episode-commands";

/**
 * Retry with edited input (core's `retryEpisodeWithInput`): the input is checked against the
 * expectation's schema from the console's deployment, stored, and the episode goes back to
 * `pending` as its next attempt, in the audit row's transaction. A refused input answers 400
 * with its field issues (the error's `data.inputIssues`); nothing changes.
 */
export async function retryEpisodeWithEditedInput(options: {
  db: Queryable;
  registry: Pick<ActorRegistry, "expectation">;
  id: string;
  input: Record<string, unknown>;
  by: string;
  sourceNode: string;
}): Promise<TEpisodeCommandResult> {
  const result = await retryEpisodeWithInput(
    {
      episodeId: options.id,
      input: options.input,
      registry: options.registry,
      by: options.by,
      sourceNode: options.sourceNode,
    },
    options.db,
  );
  switch (result.kind) {
    case "retried":
      return {
        id: result.episodeId,
        status: result.episode.status,
        attempt: result.episode.attempt,
      };
    case "invalid_input":
      throw new CycliumError(
        "invalid_input",
        `The input does not match the expectation's schema: ${describeInputIssues(result.issues)}`,
        { details: { issues: result.issues } },
      );
    case "not_found":
      throw new CycliumError("not_found", `No episode ${result.episodeId}.`);
    case "conflict":
      throw new CycliumError(
        "conflict",
        result.episode.archivedAt !== null
          ? "This episode is archived; archived episodes are history."
          : `Only failed or cancelled episodes can be retried; this one is ${result.episode.status}.`,
      );
    default:
      return assertNever(result, "retry with input");
  }
}
