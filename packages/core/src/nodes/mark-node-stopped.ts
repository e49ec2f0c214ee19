import type { Queryable } from "../db/index";

export interface MarkNodeStoppedOptions {
  db: Queryable;
  identity: string;
}

/** Records a graceful shutdown. Returns false when the node has no row. */
export async function markNodeStopped({ db, identity }: MarkNodeStoppedOptions): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE cyclium_nodes
     SET status = 'stopped', stopped_at = now(), last_seen_at = now()
     WHERE identity = $1`,
    [identity],
  );
  return (rowCount ?? 0) > 0;
}
