import type { Queryable } from "../../db/index";
import { envScopeSql, SqlParams } from "../../scope/index";
import type { AgentDefinition } from "./agent-definition";
import {
  AGENT_DEFINITION_COLUMNS,
  toAgentDefinition,
  type AgentDefinitionRecord,
} from "./agent-definition-row";

export interface GetAgentDefinitionOptions {
  /** The env the actor belongs to; another env's actor of that name is not found. */
  env: string | null;
  identifier: string;
}

/** One dynamic actor, enabled or not; null when its env has none by that identifier. */
export async function getAgentDefinition(
  options: GetAgentDefinitionOptions,
  db: Queryable,
): Promise<AgentDefinition | null> {
  const params = new SqlParams([options.identifier]);
  const { rows } = await db.query<AgentDefinitionRecord>(
    `SELECT ${AGENT_DEFINITION_COLUMNS} FROM cyclium_agent_definitions
      WHERE identifier = $1 AND ${envScopeSql("env", options.env, params)}`,
    params.values,
  );
  const row = rows[0];
  return row === undefined ? null : toAgentDefinition(row);
}
