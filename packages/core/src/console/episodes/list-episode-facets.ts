import type { Queryable } from "../../db/index";
import { envScopeSql, SqlParams } from "../../scope/index";

export interface EpisodeFacets {
  /** Actors with episodes in the env or registered here, alphabetically, with expectations. */
  actors: { actorId: string; expectations: string[] }[];
  /** Stacks that episodes of the env were stamped with (NULL left out). */
  stacks: string[];
}

/** A filter dropdown with more entries than this is not a dropdown any more. */
const MAX_VALUES = 200;

/**
 * Distinct values of an indexed column in one env by a "loose index scan": each step of the
 * recursive CTE jumps to the next value in the (source_env, column, ...) index, so the cost is
 * one index probe per distinct value, not one row per episode (milliseconds at 1M episodes).
 */
async function distinctInEnv(
  db: Queryable,
  column: "actor_id" | "source_stack",
  env: string | null,
): Promise<string[]> {
  const params = new SqlParams();
  const scope = envScopeSql("source_env", env, params);
  const limit = params.add(MAX_VALUES);
  // ORDER BY source_env first: see migration 20261130000000 (IS NULL is not an equality).
  const { rows } = await db.query<{ value: string }>(
    `WITH RECURSIVE v(value, n) AS (
       (SELECT ${column}, 1 FROM cyclium_episodes
         WHERE ${scope} AND ${column} IS NOT NULL
         ORDER BY source_env, ${column} LIMIT 1)
       UNION ALL
       SELECT (SELECT ${column} FROM cyclium_episodes
                WHERE ${scope} AND ${column} > v.value
                ORDER BY source_env, ${column} LIMIT 1), v.n + 1
         FROM v WHERE v.value IS NOT NULL AND v.n < ${limit}
     )
     SELECT value FROM v WHERE value IS NOT NULL`,
    params.values,
  );
  return rows.map((row) => row.value);
}

/** Values for the episode filters: from the env's episodes and this node's actor registry. */
export async function listEpisodeFacets(options: {
  db: Queryable;
  env: string | null;
  /** This node's actor registry (structural, so episodes need not import actors). */
  registered: readonly { identifier: string; expectations: readonly { id: string }[] }[];
}): Promise<EpisodeFacets> {
  const [actorIds, stacks] = await Promise.all([
    distinctInEnv(options.db, "actor_id", options.env),
    distinctInEnv(options.db, "source_stack", options.env),
  ]);
  const expectationsOf = new Map(
    options.registered.map((actor) => [actor.identifier, actor.expectations.map((e) => e.id)]),
  );
  const all = new Set([...actorIds, ...expectationsOf.keys()]);
  return {
    actors: [...all]
      .sort()
      .map((actorId) => ({ actorId, expectations: expectationsOf.get(actorId) ?? [] })),
    stacks,
  };
}
