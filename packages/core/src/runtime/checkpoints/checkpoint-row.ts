import type { EpisodeCheckpointModel } from "@cyclium/db/models";
import type { RowOf } from "../../db/row-of";

/** One row of `cyclium_episode_checkpoints`, as the console and the runner read it. */
export interface Checkpoint {
  id: string;
  episodeId: string;
  /**
   * The step the checkpoint was taken in (0 = `init`). A resume continues with step `number + 1`;
   * a second checkpoint in the same step replaces the first, so the unique (episode, number)
   * index holds without a sequence of its own.
   */
  number: number;
  phase: string;
  schemaVersion: number;
  state: unknown;
  insertedAt: Date;
}

export type CheckpointRow = RowOf<EpisodeCheckpointModel>;

export const CHECKPOINT_COLUMNS =
  "id::text AS id, episode_id, number, phase, schema_version, state, inserted_at";

export function toCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    id: row.id,
    episodeId: row.episode_id,
    number: row.number,
    phase: row.phase,
    schemaVersion: row.schema_version,
    state: row.state,
    insertedAt: row.inserted_at,
  };
}
