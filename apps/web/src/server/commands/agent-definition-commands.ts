// Dynamic actors' writes as the console and REST answer them: core returns expected outcomes as
// values (`conflict`, `not_found`); here they become the CycliumError both transports map, and
// the definition goes on the wire with its dates as ISO strings (JSON has no Date).
import type {
  AgentDefinition,
  CreateAgentDefinitionResult,
  UpdateAgentDefinitionResult,
} from "@cyclium/core/actors";
import { assertNever, CycliumError } from "@cyclium/core/errors";

export type TAgentDefinitionView = Omit<AgentDefinition, "insertedAt" | "updatedAt"> & {
  insertedAt: string;
  updatedAt: string;
};

export function agentDefinitionView(definition: AgentDefinition): TAgentDefinitionView {
  return {
    ...definition,
    insertedAt: definition.insertedAt.toISOString(),
    updatedAt: definition.updatedAt.toISOString(),
  };
}

export function writtenDefinition(
  result: CreateAgentDefinitionResult | UpdateAgentDefinitionResult,
): TAgentDefinitionView {
  switch (result.kind) {
    case "created":
    case "updated":
      return agentDefinitionView(result.definition);
    case "conflict":
      throw new CycliumError(
        "conflict",
        `Dynamic actor "${result.identifier}" already exists or was changed meanwhile: reload it and edit it instead.`,
      );
    case "not_found":
      throw new CycliumError("not_found", `No dynamic actor "${result.identifier}".`);
    default:
      return assertNever(result, "agent definition result");
  }
}
