import type { Queryable } from "../../db/index";
import { envScopeSql, SqlParams } from "../../scope/index";
import {
  listNodeSweepActivity,
  listRecoverySweeps,
  type NodeSweepActivity,
  type RecoverySweepItem,
} from "./list-recovery-sweeps";

export interface RecoveryOverview {
  /** Running, unarchived episodes of the env silent for longer than the default 120 s. */
  staleRunning: number;
  sweeps: RecoverySweepItem[];
  nodes: NodeSweepActivity[];
}

/** The Recovery page: candidates for the next sweep, past sweeps, and each node's sweep timer. */
export async function getRecoveryOverview(options: {
  db: Queryable;
  env: string | null;
}): Promise<RecoveryOverview> {
  const params = new SqlParams();
  const scope = envScopeSql("e.source_env", options.env, params);
  // Same staleness rule as the sweep (newest journal entry, else started_at), over the partial
  // index cyclium_episodes_running_idx that only holds running episodes.
  const [stale, sweeps, nodes] = await Promise.all([
    options.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM cyclium_episodes e
        WHERE e.status = 'running' AND e.archived_at IS NULL AND ${scope}
          AND coalesce((SELECT max(s.inserted_at) FROM cyclium_episode_steps s
                         WHERE s.episode_id = e.id), e.started_at, e.updated_at)
              < now() - interval '120 seconds'`,
      params.values,
    ),
    listRecoverySweeps({ db: options.db, env: options.env, limit: 50 }),
    listNodeSweepActivity({ db: options.db, hours: 24 }),
  ]);
  return { staleRunning: stale.rows[0]?.count ?? 0, sweeps, nodes };
}
