import type { Queryable } from "../db/index";

export interface AgentDefinitionExpectations {
  identifier: string;
  expectations: unknown;
}

const SQL = `
SELECT identifier, expectations
  FROM cyclium_agent_definitions
 WHERE identifier = ANY($1::text[])`;

/** The expectations of the dynamic actors among `actorIds`, one query for a whole sweep. */
export async function loadAgentDefinitions(
  actorIds: readonly string[],
  db: Queryable,
): Promise<AgentDefinitionExpectations[]> {
  if (actorIds.length === 0) return [];
  const result = await db.query<AgentDefinitionExpectations>(SQL, [actorIds]);
  return result.rows;
}
