import type { Finding } from "./finding-row";
import type { RaiseFindingOptions } from "./raise-finding";

/** What a strategy passes to `ctx.raiseFinding`: the episode and env come from the run. */
export type StrategyFindingInput = Omit<RaiseFindingOptions, "episode" | "env">;

/** What `ctx.raiseFinding` / `ctx.clearFinding` answer (the runtime's fenced writes). */
export type FencedFindingResult =
  | { kind: "written"; finding: Finding }
  /** Nothing to clear (no active finding with that key in the episode's env). */
  | { kind: "not_found" }
  /** This node no longer holds the episode's claim: nothing was written. */
  | { kind: "fenced" };
