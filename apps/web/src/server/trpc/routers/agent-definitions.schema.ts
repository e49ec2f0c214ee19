import { ZAgentDefinitionChanges, ZAgentDefinitionInput } from "@cyclium/core/actors";
import { z } from "zod";
import { ZName } from "./shared.schema";

/** Core's own schemas (the loader's field schemas): one spelling of every field. */
export const ZCreateAgentDefinitionInput = ZAgentDefinitionInput;

export const ZUpdateAgentDefinitionInput = z.strictObject({
  identifier: ZName,
  changes: ZAgentDefinitionChanges,
});
export type TUpdateAgentDefinitionInput = z.input<typeof ZUpdateAgentDefinitionInput>;

export const ZSetAgentDefinitionEnabledInput = z.strictObject({
  identifier: ZName,
  enabled: z.boolean(),
});
