import { z } from "zod";
import type { Queryable } from "../../db/index";
import {
  CHECKPOINT_COLUMNS,
  toCheckpoint,
  type Checkpoint,
  type CheckpointRow,
} from "./checkpoint-row";

export const ZListCheckpointsInput = z.object({ episodeId: z.uuid() });
export type TListCheckpointsInput = z.infer<typeof ZListCheckpointsInput>;

/** An episode's checkpoints, oldest first (the console's episode detail). */
export async function listCheckpoints(
  input: TListCheckpointsInput,
  db: Queryable,
): Promise<Checkpoint[]> {
  const { episodeId } = ZListCheckpointsInput.parse(input);
  const result = await db.query<CheckpointRow>(
    `SELECT ${CHECKPOINT_COLUMNS} FROM cyclium_episode_checkpoints
      WHERE episode_id = $1 ORDER BY number`,
    [episodeId],
  );
  return result.rows.map(toCheckpoint);
}

/** The newest checkpoint of an episode (the highest step), if any. */
export async function loadNewestCheckpoint(
  episodeId: string,
  db: Queryable,
): Promise<Checkpoint | undefined> {
  const result = await db.query<CheckpointRow>(
    `SELECT ${CHECKPOINT_COLUMNS} FROM cyclium_episode_checkpoints
      WHERE episode_id = $1 ORDER BY number DESC LIMIT 1`,
    [episodeId],
  );
  const row = result.rows[0];
  return row === undefined ? undefined : toCheckpoint(row);
}

/** A completed episode needs no checkpoints (SPEC 12); failed ones keep them for inspection. */
export async function deleteCheckpoints(episodeId: string, db: Queryable): Promise<number> {
  const result = await db.query(`DELETE FROM cyclium_episode_checkpoints WHERE episode_id = $1`, [
    episodeId,
  ]);
  return result.rowCount ?? 0;
}
