import type { Queryable } from "../../db/index";
import { ZAgentDefinitionInput, type AgentDefinition } from "./agent-definition";
import { publishAgentDefinitionChanged } from "./agent-definition-changed";
import {
  AGENT_DEFINITION_COLUMNS,
  toAgentDefinition,
  type AgentDefinitionRecord,
} from "./agent-definition-row";
import { parseDefinitionInput, validateAgentDefinition } from "./validate-agent-definition";

export type CreateAgentDefinitionResult =
  { kind: "created"; definition: AgentDefinition } | { kind: "conflict"; identifier: string };

export interface CreateAgentDefinitionOptions {
  /** The env the actor runs in (SPEC section 8): only that env's nodes load it. */
  env: string | null;
  /** The definition as a caller sent it (ZAgentDefinitionInput); validated here. */
  definition: unknown;
}

/**
 * Stores a dynamic actor in one env after the loader's schema and the live workers' strategies accept it
 * (otherwise `invalid_input` naming each field), and tells every node to load it now. Pass a
 * transaction as `db` to commit it with an audit row: the notification goes out on commit.
 */
export async function createAgentDefinition(
  options: CreateAgentDefinitionOptions,
  db: Queryable,
): Promise<CreateAgentDefinitionResult> {
  const input = options.definition;
  const identifier = identifierOf(input);
  const fields = parseDefinitionInput(ZAgentDefinitionInput, input, identifier);
  const stored = {
    identifier: fields.identifier,
    max_concurrent_episodes: fields.maxConcurrentEpisodes,
    stacks: fields.stacks,
    expectations: fields.expectations,
  };
  await validateAgentDefinition(
    { definition: stored, env: options.env, checkStrategies: true },
    db,
  );
  const { rows } = await db.query<AgentDefinitionRecord>(
    `INSERT INTO cyclium_agent_definitions
       (identifier, env, enabled, max_concurrent_episodes, stacks, expectations)
     VALUES ($1, $6, $2, $3, $4::text[], $5::jsonb)
     ON CONFLICT (identifier, env) DO NOTHING
     RETURNING ${AGENT_DEFINITION_COLUMNS}`,
    [
      stored.identifier,
      fields.enabled,
      stored.max_concurrent_episodes,
      stored.stacks,
      JSON.stringify(stored.expectations),
      options.env,
    ],
  );
  const row = rows[0];
  if (row === undefined) return { kind: "conflict", identifier: stored.identifier };
  await publishAgentDefinitionChanged({ identifier: row.identifier, env: row.env }, db);
  return { kind: "created", definition: toAgentDefinition(row) };
}

export function identifierOf(input: unknown): string {
  if (typeof input === "object" && input !== null && "identifier" in input) {
    const { identifier } = input;
    if (typeof identifier === "string") return identifier;
  }
  return "(no identifier)";
}
