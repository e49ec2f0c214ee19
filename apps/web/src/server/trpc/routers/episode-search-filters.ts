import type { EpisodeListFilters } from "@cyclium/core/console";
import { CycliumError } from "@cyclium/core/console";
import {
  parseEpisodeSearch,
  type TEpisodeSearch,
} from "../../../lib/episode-search/parse-episode-search";
import type { TEpisodeFilterInput } from "./episodes.schema";
import { resolveEnv } from "./shared.schema";

const SELECT_LABELS = {
  actorId: "Actor",
  expectationId: "Expectation",
  status: "Status",
  triggerType: "Trigger",
  stack: "Stack",
} as const;

/**
 * Core's list filter from the list's selects and its search. A qualifier the selects also set
 * must agree with them (`status:failed` with the Status select on completed is a contradiction
 * the operator is told about, not a silent empty list); `env:` looks in that env instead of the
 * console's switch. An unreadable search is `invalid_input` (400) with the parser's message.
 */
export function episodeFiltersFrom(
  consoleEnv: string | null,
  input: TEpisodeFilterInput,
): EpisodeListFilters {
  let search: TEpisodeSearch = { input: [] };
  if (input.q !== undefined) {
    const parsed = parseEpisodeSearch(input.q);
    if (parsed.kind === "invalid") throw new CycliumError("invalid_input", parsed.message);
    search = parsed.search;
  }
  for (const field of Object.keys(SELECT_LABELS) as (keyof typeof SELECT_LABELS)[]) {
    const selected = input[field];
    const searched = search[field];
    if (selected !== undefined && searched !== undefined && selected !== searched) {
      throw new CycliumError(
        "invalid_input",
        `The search says ${searched} but the ${SELECT_LABELS[field]} filter says ${selected}.`,
      );
    }
  }
  return {
    env: search.env !== undefined ? search.env : resolveEnv(consoleEnv, input.env),
    actorId: input.actorId ?? search.actorId,
    expectationId: input.expectationId ?? search.expectationId,
    status: input.status ?? search.status,
    triggerType: input.triggerType ?? search.triggerType,
    stack: input.stack ?? search.stack,
    from: input.from === undefined ? undefined : new Date(input.from),
    to: input.to === undefined ? undefined : new Date(input.to),
    archived: input.archived,
    exhausted: input.exhausted,
    dedupeKey: search.dedupeKey,
    signal: search.signal,
    idPrefix: search.idPrefix,
    input: search.input.length === 0 ? undefined : search.input,
  };
}
