import type { ExpectationDefinition } from "../actors/index";
import type { InputIssue } from "../actors/input-schemas/validate-expectation-input";

export type ValidateSignalResult =
  /** Passes the signal's schema: its parsed output (defaults applied) is what is stored. */
  | { kind: "valid"; payload: unknown }
  /** The expectation declares no signal of that name. */
  | { kind: "unknown_signal"; declared: string[] }
  | { kind: "invalid"; issues: InputIssue[] };

/**
 * Checks a signal against the schema its expectation declares (`signals: { name: schema }`), as
 * every delivery does before it is stored (client, REST, tRPC, console): a bad payload is
 * refused naming the field, never stored for a strategy to trip over.
 */
export function validateSignal(options: {
  expectation: Pick<ExpectationDefinition, "signals">;
  name: string;
  payload: unknown;
}): ValidateSignalResult {
  const signals = options.expectation.signals ?? {};
  const schema = Object.hasOwn(signals, options.name) ? signals[options.name] : undefined;
  if (schema === undefined) return { kind: "unknown_signal", declared: Object.keys(signals) };
  const parsed = schema.safeParse(options.payload);
  if (parsed.success) return { kind: "valid", payload: parsed.data };
  return {
    kind: "invalid",
    issues: parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join("."),
      message: issue.message,
    })),
  };
}
