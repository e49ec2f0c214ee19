import type { Queryable } from "../db/index";
import type { NodeInfo, NodeRecord } from "./node";
import { NODE_COLUMNS, nodeInfoParams, toNodeRecord } from "./node-row";

export interface RecordNodeHeartbeatOptions {
  db: Queryable;
  node: NodeInfo;
}

/**
 * Refreshes last_seen_at (database clock) and the modes the node reports. An upsert, not an
 * update, so a row removed by an operator's cleanup reappears on the next beat; started_at of an
 * existing row is kept.
 */
export async function recordNodeHeartbeat({
  db,
  node,
}: RecordNodeHeartbeatOptions): Promise<NodeRecord> {
  const { rows } = await db.query(
    `INSERT INTO cyclium_nodes
       (identity, kind, mode, overrides, stack, env, host, pid, version, status,
        started_at, last_seen_at, stopped_at, strategies)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, 'running', now(), now(), NULL, $10::text[])
     ON CONFLICT (identity) DO UPDATE SET
       kind = EXCLUDED.kind, mode = EXCLUDED.mode, overrides = EXCLUDED.overrides,
       stack = EXCLUDED.stack, env = EXCLUDED.env, host = EXCLUDED.host, pid = EXCLUDED.pid,
       version = EXCLUDED.version, strategies = EXCLUDED.strategies, status = 'running',
       last_seen_at = now(), stopped_at = NULL
     RETURNING ${NODE_COLUMNS}, true AS live`,
    nodeInfoParams(node),
  );
  return toNodeRecord(rows[0]);
}
