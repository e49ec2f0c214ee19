import type { Queryable } from "../../db/index";
import type { AgentDefinition } from "./agent-definition";
import {
  AGENT_DEFINITION_COLUMNS,
  toAgentDefinition,
  type AgentDefinitionRecord,
} from "./agent-definition-row";

/**
 * Every dynamic actor, enabled or not, by identifier. The table holds tens of rows (each is a
 * hand-made actor), so there is no paging.
 */
export async function listAgentDefinitions(db: Queryable): Promise<AgentDefinition[]> {
  const { rows } = await db.query<AgentDefinitionRecord>(
    `SELECT ${AGENT_DEFINITION_COLUMNS} FROM cyclium_agent_definitions ORDER BY identifier`,
  );
  return rows.map(toAgentDefinition);
}
