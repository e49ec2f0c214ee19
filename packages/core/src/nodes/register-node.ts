import type { Queryable } from "../db/index";
import type { NodeInfo, NodeRecord } from "./node";
import { NODE_COLUMNS, nodeInfoParams, toNodeRecord } from "./node-row";

export interface RegisterNodeOptions {
  db: Queryable;
  node: NodeInfo;
}

/**
 * Records a process start: inserts the node, or — when the identity is static and the process
 * restarted — resets its row to running with a fresh started_at.
 */
export async function registerNode({ db, node }: RegisterNodeOptions): Promise<NodeRecord> {
  const { rows } = await db.query(
    `INSERT INTO cyclium_nodes
       (identity, kind, mode, overrides, stack, env, host, pid, version, status,
        started_at, last_seen_at, stopped_at, strategies)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, 'running', now(), now(), NULL, $10::text[])
     ON CONFLICT (identity) DO UPDATE SET
       kind = EXCLUDED.kind, mode = EXCLUDED.mode, overrides = EXCLUDED.overrides,
       stack = EXCLUDED.stack, env = EXCLUDED.env, host = EXCLUDED.host, pid = EXCLUDED.pid,
       version = EXCLUDED.version, strategies = EXCLUDED.strategies, status = 'running',
       started_at = now(), last_seen_at = now(), stopped_at = NULL
     RETURNING ${NODE_COLUMNS}, true AS live`,
    nodeInfoParams(node),
  );
  return toNodeRecord(rows[0]);
}
