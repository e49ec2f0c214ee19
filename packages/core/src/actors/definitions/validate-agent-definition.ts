import type { z } from "zod";
import type { Queryable } from "../../db/index";
import { CycliumError } from "../../errors/index";
// The registry file, not nodes/index: that face also carries createCycliumNode, which needs actors.
import { listRegisteredStrategies } from "./list-registered-strategies";
import type { ExpectationDefinition } from "../actor-definition";
import { formatIssues } from "../define-actor";
import { parseAgentDefinition, type StoredAgentDefinition } from "./agent-definition";

/** zod at the boundary: a bad request is an expected `invalid_input` naming each field. */
export function parseDefinitionInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  identifier: string,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalid(identifier, formatIssues(parsed.error.issues));
  return parsed.data;
}

export interface ValidateAgentDefinitionOptions {
  definition: StoredAgentDefinition;
  /** The definition's env: its strategies must be registered by a live worker of that env. */
  env: string | null;
  /** Check each expectation's strategy against the live workers' (create, or new expectations). */
  checkStrategies: boolean;
}

/**
 * Refuses what the loader would skip: the row goes through the loader's own parse
 * (ZActorDefinition), then each strategy must be a name some live worker of the definition's env
 * registered (only those run it), so an actor is never stored that no node can run.
 */
export async function validateAgentDefinition(
  options: ValidateAgentDefinitionOptions,
  db: Queryable,
): Promise<void> {
  const { definition } = options;
  const parsed = parseAgentDefinition(definition);
  if (parsed.kind === "invalid") throw invalid(definition.identifier, parsed.message);
  if (!options.checkStrategies) return;
  const registered = await listRegisteredStrategies({ env: options.env }, db);
  const names = new Set(registered.map((strategy) => strategy.name));
  const problems = parsed.actor.expectations.flatMap((expectation, index) =>
    strategyProblem(expectation, index, names, options.env),
  );
  if (problems.length > 0) throw invalid(definition.identifier, problems.join("\n"));
}

function strategyProblem(
  expectation: ExpectationDefinition,
  index: number,
  registered: ReadonlySet<string>,
  env: string | null,
): string[] {
  const field = `  - expectations.${index}.strategy`;
  if (typeof expectation.strategy !== "string") {
    return [`${field}: must be the name of a strategy a worker registered`];
  }
  if (registered.has(expectation.strategy)) return [];
  // The unset env reads as it always did; another env is named, as its workers are the ones asked.
  const of = env === null ? "" : ` of env ${JSON.stringify(env)}`;
  const known =
    registered.size === 0
      ? `no live worker${of} has registered any strategy; start a worker of the deployment first`
      : `live workers${of} registered: ${[...registered].join(", ")}`;
  return [
    `${field}: "${expectation.strategy}" is not registered by any live worker${of} (${known})`,
  ];
}

function invalid(identifier: string, issues: string): CycliumError {
  return new CycliumError(
    "invalid_input",
    `Invalid dynamic actor ${JSON.stringify(identifier)}:\n${issues}`,
  );
}
