import type { Queryable } from "../../db/index";
import type { AgentDefinition } from "./agent-definition";
import {
  AGENT_DEFINITION_COLUMNS,
  toAgentDefinition,
  type AgentDefinitionRecord,
} from "./agent-definition-row";

export interface GetAgentDefinitionOptions {
  identifier: string;
}

/** One dynamic actor, enabled or not; null when there is none by that identifier. */
export async function getAgentDefinition(
  options: GetAgentDefinitionOptions,
  db: Queryable,
): Promise<AgentDefinition | null> {
  const { rows } = await db.query<AgentDefinitionRecord>(
    `SELECT ${AGENT_DEFINITION_COLUMNS} FROM cyclium_agent_definitions WHERE identifier = $1`,
    [options.identifier],
  );
  const row = rows[0];
  return row === undefined ? null : toAgentDefinition(row);
}
