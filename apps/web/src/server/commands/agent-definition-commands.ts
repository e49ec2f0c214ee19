// Dynamic actors' writes as the console and REST answer them: core returns expected outcomes as
// values (`conflict`, `not_found`); here they become the CycliumError both transports map, and
// the definition goes on the wire with its dates as ISO strings (JSON has no Date).
import type {
  AgentDefinition,
  CreateAgentDefinitionResult,
  UpdateAgentDefinitionResult,
} from "@cyclium/core/console";
import { assertNever, CycliumError } from "@cyclium/core/console";
import { findConsoleRuntime } from "../runtime/console-runtime";

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

/**
 * A dynamic actor named like one of the deployment's actors would be stored and then ignored by
 * every node (compiled actors win): refused as a conflict naming the clash instead. The console's
 * node knows the deployment; while it is not running the name cannot be checked here, and a worker
 * that loads such a definition logs that it ignores it.
 */
export function refuseDeploymentActorName(identifier: string): void {
  if (findConsoleRuntime()?.registry.isCompiled(identifier) === true) {
    throw new CycliumError(
      "conflict",
      `"${identifier}" is an actor of the deployment; a dynamic actor cannot take its name: choose another identifier.`,
    );
  }
}
