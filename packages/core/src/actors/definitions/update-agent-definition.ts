import type { Queryable } from "../../db/index";
import { ZAgentDefinitionChanges, type AgentDefinition } from "./agent-definition";
import { publishAgentDefinitionChanged } from "./agent-definition-changed";
import {
  AGENT_DEFINITION_COLUMNS,
  toAgentDefinition,
  type AgentDefinitionRecord,
} from "./agent-definition-row";
import { parseDefinitionInput, validateAgentDefinition } from "./validate-agent-definition";

export interface UpdateAgentDefinitionOptions {
  /** The env the actor belongs to; another env's actor of that name is `not_found`. */
  env: string | null;
  identifier: string;
  /** Fields to change (ZAgentDefinitionChanges); the others keep their stored values. */
  changes: unknown;
}

export type UpdateAgentDefinitionResult =
  | { kind: "updated"; definition: AgentDefinition }
  | { kind: "not_found"; identifier: string }
  /** Someone else's edit landed between this one's read and write: reload and try again. */
  | { kind: "conflict"; identifier: string };

/**
 * Edits a dynamic actor. The merged row must pass the loader's schema; strategies are checked
 * against the live workers' when expectations change or the actor is enabled. Enabling alone is
 * `{ changes: { enabled: true } }`. Nodes reload it at once (bus event on commit).
 */
export async function updateAgentDefinition(
  options: UpdateAgentDefinitionOptions,
  db: Queryable,
): Promise<UpdateAgentDefinitionResult> {
  const { identifier, env } = options;
  const changes = parseDefinitionInput(ZAgentDefinitionChanges, options.changes, identifier);
  // Read, merge, validate, then write only if the row is still the one read: inside the caller's
  // transaction the read locks it (two admins' edits apply one after the other); on a pool, a
  // concurrent edit makes this one a `conflict` rather than silently undoing it.
  const read = await db.query<AgentDefinitionRecord & { version: string }>(
    `SELECT ${AGENT_DEFINITION_COLUMNS}, xmin::text AS version
       FROM cyclium_agent_definitions
      WHERE identifier = $1 AND env IS NOT DISTINCT FROM $2::varchar FOR UPDATE`,
    [identifier, env],
  );
  const found = read.rows[0];
  if (found === undefined) return { kind: "not_found", identifier };
  const current = toAgentDefinition(found);
  const merged = {
    identifier,
    max_concurrent_episodes: changes.maxConcurrentEpisodes ?? current.maxConcurrentEpisodes,
    stacks: changes.stacks ?? current.stacks,
    expectations: changes.expectations ?? current.expectations,
  };
  const enabled = changes.enabled ?? current.enabled;
  const enabling = enabled && !current.enabled;
  await validateAgentDefinition(
    {
      definition: merged,
      env,
      checkStrategies: changes.expectations !== undefined || enabling,
    },
    db,
  );
  // The row read above, by id: its env and identifier are already checked.
  const { rows } = await db.query<AgentDefinitionRecord>(
    `UPDATE cyclium_agent_definitions
        SET enabled = $2, max_concurrent_episodes = $3, stacks = $4::text[],
            expectations = $5::jsonb, updated_at = now()
      WHERE id = $1 AND xmin::text = $6
     RETURNING ${AGENT_DEFINITION_COLUMNS}`,
    [
      found.id,
      enabled,
      merged.max_concurrent_episodes,
      merged.stacks,
      JSON.stringify(merged.expectations),
      // xmin, not updated_at: a JS Date drops the microseconds the column keeps.
      found.version,
    ],
  );
  const row = rows[0];
  if (row === undefined) return { kind: "conflict", identifier };
  await publishAgentDefinitionChanged({ identifier, env }, db);
  return { kind: "updated", definition: toAgentDefinition(row) };
}
