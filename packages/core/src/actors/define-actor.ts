import type { z } from "zod";
import { CycliumError } from "../errors/index";
import {
  ZActorDefinition,
  type ActorDefinition,
  type ActorInput,
  type ActorSource,
  type ExpectationDefinitionOf,
} from "./actor-definition";

/**
 * Declares a compiled actor (SPEC section 2), validated now rather than when its first trigger
 * fires: an unknown trigger kind, a bad cron expression or time zone and duplicate expectation
 * ids all throw a CycliumError (`invalid_config`) naming the actor and the offending field.
 */
export function defineActor<const I extends ActorInput>(
  input: I,
): ActorDefinition<I["identifier"], ExpectationDefinitionOf<I["expectations"][number]>> {
  // The parsed definition is the input with defaults filled in: ids and schemas are the ones the
  // type names.
  return parseActorDefinition(input, "compiled") as ActorDefinition<
    I["identifier"],
    ExpectationDefinitionOf<I["expectations"][number]>
  >;
}

/** Shared with the dynamic actor loader, which gets its input from the database. */
export function parseActorDefinition(input: unknown, source: ActorSource): ActorDefinition {
  const parsed = safeParseActorDefinition(input, source);
  if (parsed.kind === "invalid") {
    const name = actorName(input);
    throw new CycliumError("invalid_config", `Invalid actor ${name}:\n${parsed.message}`, {
      details: { actor: name, issues: parsed.issues.map((issue) => issue.message) },
    });
  }
  return parsed.actor;
}

export type SafeParseActorDefinitionResult =
  | { kind: "parsed"; actor: ActorDefinition }
  | { kind: "invalid"; issues: readonly z.core.$ZodIssue[]; message: string };

/** parseActorDefinition without the throw: the issues, each with its field's path. */
export function safeParseActorDefinition(
  input: unknown,
  source: ActorSource,
): SafeParseActorDefinitionResult {
  const parsed = ZActorDefinition.safeParse(input);
  if (!parsed.success) {
    return {
      kind: "invalid",
      issues: parsed.error.issues,
      message: formatIssues(parsed.error.issues),
    };
  }
  const { maxQueuedEpisodes, ...rest } = parsed.data;
  const definition: ActorDefinition = {
    ...rest,
    maxQueuedEpisodes,
    expectations: rest.expectations.map((expectation) => Object.freeze({ ...expectation })),
    source,
  };
  return { kind: "parsed", actor: Object.freeze(definition) };
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map(
      (issue) =>
        `  - ${issue.path.length > 0 ? issue.path.join(".") : "(actor)"}: ${issue.message}`,
    )
    .join("\n");
}

function actorName(input: unknown): string {
  if (typeof input === "object" && input !== null && "identifier" in input) {
    return JSON.stringify(input.identifier);
  }
  return "(no identifier)";
}
