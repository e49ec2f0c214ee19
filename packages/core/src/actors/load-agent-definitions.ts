import type { Queryable } from "../db/index";
import type { AgentDefinitionModel } from "@cyclium/db/models";
import type { RowOf } from "../db/row-of";
import { envScopeSql, SqlParams } from "../scope/index";

/** One enabled row of cyclium_agent_definitions, as stored. */
export type AgentDefinitionRow = Pick<
  RowOf<AgentDefinitionModel>,
  "id" | "identifier" | "max_concurrent_episodes" | "expectations" | "stacks" | "updated_at"
>;

export interface LoadAgentDefinitionsOptions {
  /**
   * The env whose actors to load (strict, SPEC section 8): a node runs only its own env's
   * dynamic actors, and recovery looks up an orphan's actor in the orphan's env.
   */
  env: string | null;
  /** Only these actors (recovery looks up the dynamic actors among a sweep's orphans). */
  identifiers?: readonly string[] | undefined;
}

/**
 * The enabled dynamic actor definitions of one env; disabled rows are as good as deleted for a node, and
 * for recovery too (an orphan of a disabled actor is failed as an unknown actor's, never
 * restarted into an actor no node runs). One query for any number of identifiers.
 */
export async function loadAgentDefinitions(
  options: LoadAgentDefinitionsOptions,
  db: Queryable,
): Promise<AgentDefinitionRow[]> {
  if (options.identifiers?.length === 0) return [];
  const params = new SqlParams([options.identifiers ?? null]);
  const { rows } = await db.query<AgentDefinitionRow>(
    `SELECT id, identifier, max_concurrent_episodes, expectations, stacks, updated_at
       FROM cyclium_agent_definitions
      WHERE enabled AND ($1::text[] IS NULL OR identifier = ANY($1::text[]))
        AND ${envScopeSql("env", options.env, params)}
      ORDER BY identifier`,
    params.values,
  );
  return rows;
}
