import type { Queryable } from "../../db/index";
import { envScopeSql, SqlParams } from "../../scope/index";
import type { AgentDefinition } from "./agent-definition";
import {
  AGENT_DEFINITION_COLUMNS,
  toAgentDefinition,
  type AgentDefinitionRecord,
} from "./agent-definition-row";

export interface ListAgentDefinitionsOptions {
  /** The env whose dynamic actors to list (strict: null is the unset env only). */
  env: string | null;
}

/**
 * Every dynamic actor of one env, enabled or not, by identifier. The table holds tens of rows
 * (each is a hand-made actor), so there is no paging.
 */
export async function listAgentDefinitions(
  options: ListAgentDefinitionsOptions,
  db: Queryable,
): Promise<AgentDefinition[]> {
  const params = new SqlParams();
  const { rows } = await db.query<AgentDefinitionRecord>(
    `SELECT ${AGENT_DEFINITION_COLUMNS} FROM cyclium_agent_definitions
      WHERE ${envScopeSql("env", options.env, params)} ORDER BY identifier`,
    params.values,
  );
  return rows.map(toAgentDefinition);
}
