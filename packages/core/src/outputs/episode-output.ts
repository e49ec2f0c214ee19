import type { EpisodeOutputModel } from "@cyclium/db/models";
import type { FieldsOf, RowOf } from "../db/row-of";

/** An output a strategy wrote with `ctx.output(key?, value)` (issue 20, the output router). */
export type EpisodeOutput = FieldsOf<EpisodeOutputModel>;
export type EpisodeOutputRow = RowOf<EpisodeOutputModel>;

export const EPISODE_OUTPUT_COLUMNS =
  "id, output_key, episode_id, attempt, actor_id, value, env, inserted_at";

export function toEpisodeOutput(row: EpisodeOutputRow): EpisodeOutput {
  return {
    id: row.id,
    outputKey: row.output_key,
    episodeId: row.episode_id,
    attempt: row.attempt,
    actorId: row.actor_id,
    value: row.value,
    env: row.env,
    insertedAt: row.inserted_at,
  };
}
