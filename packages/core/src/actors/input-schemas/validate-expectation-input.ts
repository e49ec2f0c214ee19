import type { ActorRegistry } from "../actor-registry";

/** One zod issue as an operator reads it: where, and what is wrong. */
export interface InputIssue {
  /** Dotted path inside the input (`resourceId`, `limits.0.max`); empty for the whole input. */
  path: string;
  message: string;
}

export type ValidateExpectationInputResult =
  /** Passes the expectation's schema (its parsed output, defaults applied), or it has none. */
  | { kind: "valid"; input: unknown }
  | { kind: "invalid"; issues: InputIssue[] }
  | { kind: "unknown_expectation" };

/**
 * Checks an input against the expectation's zod schema, as the client's fire does, for the
 * console's fire and retry with edited input. Without a schema (dynamic actors) any input the
 * caller's own boundary accepted is valid.
 */
export function validateExpectationInput(options: {
  registry: Pick<ActorRegistry, "expectation">;
  actorId: string;
  expectationId: string;
  input: unknown;
}): ValidateExpectationInputResult {
  const expectation = options.registry.expectation(options.actorId, options.expectationId);
  if (expectation === undefined) return { kind: "unknown_expectation" };
  if (expectation.input === undefined) return { kind: "valid", input: options.input };
  const parsed = expectation.input.safeParse(options.input);
  if (parsed.success) return { kind: "valid", input: parsed.data };
  return {
    kind: "invalid",
    issues: parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join("."),
      message: issue.message,
    })),
  };
}
