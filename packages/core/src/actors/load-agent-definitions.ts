import type { Queryable } from "../db/index";

/** One enabled row of cyclium_agent_definitions, as stored. */
export interface AgentDefinitionRow {
  id: string;
  identifier: string;
  max_concurrent_episodes: number;
  expectations: unknown;
  stacks: string[] | null;
  updated_at: Date;
}

/** The enabled dynamic actor definitions; disabled rows are as good as deleted for a node. */
export async function loadAgentDefinitions(db: Queryable): Promise<AgentDefinitionRow[]> {
  const { rows } = await db.query<AgentDefinitionRow>(
    `SELECT id, identifier, max_concurrent_episodes, expectations, stacks, updated_at
       FROM cyclium_agent_definitions
      WHERE enabled
      ORDER BY identifier`,
  );
  return rows;
}
