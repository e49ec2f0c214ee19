import { claimKeyOf, MAX_DEDUPE_KEY_LENGTH } from "../claims/index";
import { CycliumError } from "../errors/index";

/** What an output key is derived from: the episode's dedupe key, id and env. */
export interface OutputKeyEpisode {
  id: string;
  dedupeKey: string | null;
  sourceEnv: string | null;
}

/**
 * The key an output is written under (SPEC section 8: env folded into keys). An explicit key gets
 * `@{env}` appended when the episode has an env, so each env writes its own outputs. Without one
 * the key is the episode's claim key: its dedupe key (which already ends in `@{env}`, so a re-run
 * of the same firing derives the same key), or `episode:{id}` for an episode without one. Folding
 * is idempotent: a key that already ends in `@{env}` is kept as it is.
 */
export function outputKeyOf(options: {
  key?: string | undefined;
  episode: OutputKeyEpisode;
}): string {
  const { key, episode } = options;
  if (key !== undefined && key.length === 0) {
    throw new CycliumError("invalid_input", "an output key must not be empty");
  }
  const base = key ?? claimKeyOf(episode);
  const env = episode.sourceEnv;
  const folded = env === null || base.endsWith(`@${env}`) ? base : `${base}@${env}`;
  if (folded.length > MAX_DEDUPE_KEY_LENGTH) {
    throw new CycliumError(
      "invalid_input",
      `output key is ${folded.length} characters, more than the ${MAX_DEDUPE_KEY_LENGTH} the database holds`,
    );
  }
  return folded;
}
