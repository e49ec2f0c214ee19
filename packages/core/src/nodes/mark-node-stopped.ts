import type { Queryable } from "../db/index";

export interface MarkNodeStoppedOptions {
  db: Queryable;
  identity: string;
}

/** `stopped`, the graceful shutdown is recorded; `not_found`, the node has no row. */
export type MarkNodeStoppedResult = { kind: "stopped" | "not_found" };

export async function markNodeStopped({
  db,
  identity,
}: MarkNodeStoppedOptions): Promise<MarkNodeStoppedResult> {
  const { rowCount } = await db.query(
    `UPDATE cyclium_nodes
     SET status = 'stopped', stopped_at = now(), last_seen_at = now()
     WHERE identity = $1`,
    [identity],
  );
  return { kind: (rowCount ?? 0) > 0 ? "stopped" : "not_found" };
}
