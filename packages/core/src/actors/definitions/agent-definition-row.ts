import type { AgentDefinition } from "./agent-definition";
import { parseAgentDefinition } from "./agent-definition";

export const AGENT_DEFINITION_COLUMNS = `id, identifier, env, enabled, max_concurrent_episodes, stacks,
  expectations, inserted_at, updated_at`;

export interface AgentDefinitionRecord {
  id: string;
  identifier: string;
  env: string | null;
  enabled: boolean;
  max_concurrent_episodes: number;
  stacks: string[] | null;
  expectations: unknown;
  inserted_at: Date;
  updated_at: Date;
}

export function toAgentDefinition(row: AgentDefinitionRecord): AgentDefinition {
  const parsed = parseAgentDefinition(row);
  return {
    id: row.id,
    identifier: row.identifier,
    env: row.env,
    enabled: row.enabled,
    maxConcurrentEpisodes: row.max_concurrent_episodes,
    stacks: row.stacks ?? [],
    expectations: row.expectations,
    insertedAt: row.inserted_at,
    updatedAt: row.updated_at,
    problem: parsed.kind === "parsed" ? null : parsed.message,
  };
}
