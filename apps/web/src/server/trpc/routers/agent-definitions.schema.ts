import { ZAgentDefinitionChanges, ZAgentDefinitionInput } from "@cyclium/core/console";
import { z } from "zod";
import { ZEnvInput, ZName } from "./shared.schema";

/**
 * Dynamic actors belong to one env, as REST's tenants do: every procedure takes the env the page
 * looks at (omitted: the console's own). Core's own schemas (the loader's field schemas) give one
 * spelling of every field.
 */
export const ZListAgentDefinitionsInput = z.object({ env: ZEnvInput }).optional();

export const ZCreateAgentDefinitionInput = ZAgentDefinitionInput.extend({ env: ZEnvInput });

export const ZUpdateAgentDefinitionInput = z.strictObject({
  env: ZEnvInput,
  identifier: ZName,
  changes: ZAgentDefinitionChanges,
});
export type TUpdateAgentDefinitionInput = z.input<typeof ZUpdateAgentDefinitionInput>;

export const ZSetAgentDefinitionEnabledInput = z.strictObject({
  env: ZEnvInput,
  identifier: ZName,
  enabled: z.boolean(),
});
