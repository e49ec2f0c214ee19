import type { CommonCheck } from "./check-common";
import type { RunFacts } from "./run-facts";

/** A scenario's own invariants on top of the common ones: more figures, more violations. */
export type ScenarioCheck = (
  facts: RunFacts,
  common: CommonCheck,
) => { details: Record<string, string | number>; violations: string[] };
