import type { Queryable } from "../../db/index";
import { DEFAULT_LIVE_WITHIN_MS } from "../../scope/index";

export interface ListRegisteredStrategiesOptions {
  /** A worker counts while its last heartbeat is within this window of the database's now(). */
  liveWithinMs?: number;
  /**
   * Only the workers of this env (null: the unset env's), the ones that would run a dynamic
   * actor of that env; left out, every env's.
   */
  env?: string | null | undefined;
}

export interface RegisteredStrategy {
  name: string;
  /** The live workers that registered it, by identity. */
  nodes: string[];
}

/**
 * The strategies live workers registered (the union of their heartbeats' `strategies`), by
 * name. Only workers: a console runs trigger-only, so a strategy only it knows would never run.
 */
export async function listRegisteredStrategies(
  options: ListRegisteredStrategiesOptions,
  db: Queryable,
): Promise<RegisteredStrategy[]> {
  const { rows } = await db.query<RegisteredStrategy>(
    `SELECT s.name, array_agg(n.identity ORDER BY n.identity) AS nodes
       FROM cyclium_nodes n CROSS JOIN LATERAL unnest(n.strategies) AS s(name)
      WHERE n.kind = 'worker' AND n.status = 'running'
        AND n.last_seen_at > now() - make_interval(secs => $1::double precision / 1000)
        AND ($2::boolean OR n.env IS NOT DISTINCT FROM $3::varchar)
      GROUP BY s.name
      ORDER BY s.name`,
    [
      options.liveWithinMs ?? DEFAULT_LIVE_WITHIN_MS,
      options.env === undefined,
      options.env ?? null,
    ],
  );
  return rows;
}
