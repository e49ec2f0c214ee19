import { z } from "zod";
import { ZActorDefinition } from "../actor-definition";
import { safeParseActorDefinition, type SafeParseActorDefinitionResult } from "../define-actor";

/**
 * The fields a row of cyclium_agent_definitions holds, spelled as the loader's schema
 * (ZActorDefinition) spells them: the write path reuses that schema's own field schemas, so a
 * field the loader would reject (`recovery_policy`, an unknown trigger kind) is never stored.
 * `episodeOverflow` and `maxQueuedEpisodes` have no column: a dynamic actor always queues.
 */
const shape = ZActorDefinition.shape;

/** What an admin sends to create a dynamic actor (console and REST). */
export const ZAgentDefinitionInput = z.strictObject({
  identifier: shape.identifier,
  maxConcurrentEpisodes: shape.maxConcurrentEpisodes,
  stacks: shape.stacks,
  expectations: shape.expectations,
  enabled: z.boolean().default(true),
});
export type TAgentDefinitionInput = z.input<typeof ZAgentDefinitionInput>;

/** An edit: any of the fields but the identifier (episodes name the actor by it). */
export const ZAgentDefinitionChanges = z.strictObject({
  maxConcurrentEpisodes: shape.maxConcurrentEpisodes.removeDefault().optional(),
  stacks: shape.stacks.removeDefault().optional(),
  expectations: shape.expectations.optional(),
  enabled: z.boolean().optional(),
});
export type TAgentDefinitionChanges = z.input<typeof ZAgentDefinitionChanges>;

/** One row of cyclium_agent_definitions, as the console and REST show it. */
export interface AgentDefinition {
  id: string;
  identifier: string;
  /** The env it runs in (SPEC section 8); null is the unset env (REST tenant `default`). */
  env: string | null;
  enabled: boolean;
  maxConcurrentEpisodes: number;
  stacks: string[];
  /** As stored: JSON the loader parses with ZExpectation. */
  expectations: unknown;
  insertedAt: Date;
  updatedAt: Date;
  /**
   * Why the loader skips this row (it was written by hand and does not validate), with every
   * offending field named; null when it loads.
   */
  problem: string | null;
}

/** The stored fields of a definition, as the loader reads them. */
export interface StoredAgentDefinition {
  identifier: string;
  max_concurrent_episodes: number;
  stacks: string[] | null;
  expectations: unknown;
}

/** The input ZActorDefinition gets for a row: the one mapping of columns to fields. */
export function actorInputOf(row: StoredAgentDefinition): Record<string, unknown> {
  return {
    identifier: row.identifier,
    maxConcurrentEpisodes: row.max_concurrent_episodes,
    stacks: row.stacks ?? [],
    expectations: row.expectations,
  };
}

/**
 * A row through the loader's schema. Used by the loader, by recovery (an orphan of a row that
 * does not validate is failed, never restarted into an actor no node runs) and by the writes.
 */
export function parseAgentDefinition(row: StoredAgentDefinition): SafeParseActorDefinitionResult {
  return safeParseActorDefinition(actorInputOf(row), "dynamic");
}
