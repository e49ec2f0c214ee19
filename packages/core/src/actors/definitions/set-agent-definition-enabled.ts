import type { Queryable } from "../../db/index";
import { updateAgentDefinition, type UpdateAgentDefinitionResult } from "./update-agent-definition";

export interface SetAgentDefinitionEnabledOptions {
  env: string | null;
  identifier: string;
  enabled: boolean;
}

/**
 * Enables or disables a dynamic actor. Disabled, no node runs it (its running episodes finish;
 * recovery fails its orphans as an unknown actor's); enabling re-checks it like an edit.
 */
export function setAgentDefinitionEnabled(
  options: SetAgentDefinitionEnabledOptions,
  db: Queryable,
): Promise<UpdateAgentDefinitionResult> {
  return updateAgentDefinition(
    { env: options.env, identifier: options.identifier, changes: { enabled: options.enabled } },
    db,
  );
}
