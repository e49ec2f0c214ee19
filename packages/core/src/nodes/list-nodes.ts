import type { Queryable } from "../db/index";
import { DEFAULT_LIVE_WITHIN_MS } from "../scope/index";
import type { NodeKind, NodeRecord } from "./node";
import { NODE_COLUMNS, toNodeRecord } from "./node-row";

export interface ListNodesOptions {
  db: Queryable;
  /** A running node is live when last_seen_at is within this window of the database's now(). */
  liveWithinMs?: number;
  /** Only live nodes. Default false: stopped and silent nodes are listed with `live: false`. */
  liveOnly?: boolean;
  kind?: NodeKind;
}

/** Nodes by kind and identity. Liveness uses the database clock, never this process's. */
export async function listNodes({
  db,
  liveWithinMs = DEFAULT_LIVE_WITHIN_MS,
  liveOnly = false,
  kind,
}: ListNodesOptions): Promise<NodeRecord[]> {
  const { rows } = await db.query(
    `SELECT ${NODE_COLUMNS}, live
     FROM (
       SELECT *,
              status = 'running'
                AND last_seen_at > now() - make_interval(secs => $1::double precision / 1000)
                AS live
       FROM cyclium_nodes
       WHERE $3::varchar IS NULL OR kind = $3::varchar
     ) AS nodes
     WHERE live OR NOT $2::boolean
     ORDER BY kind, identity`,
    [liveWithinMs, liveOnly, kind ?? null],
  );
  return rows.map(toNodeRecord);
}
