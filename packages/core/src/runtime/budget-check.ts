import type { Budget } from "../actors/index";

export interface BudgetUsage {
  turns: number;
  tokens: number;
  /** Wall time of this run so far. */
  elapsedMs: number;
}

/**
 * Checked before every step (SPEC section 12): a budget is exhausted once usage has reached it,
 * because the next step could only add to it. Returns the reason, or null while within budget.
 */
export function exhaustedBudget(budget: Budget, usage: BudgetUsage): string | null {
  if (budget.maxTurns !== undefined && usage.turns >= budget.maxTurns) {
    return `turn budget exhausted: ${usage.turns} of ${budget.maxTurns} turns used`;
  }
  if (budget.maxTokens !== undefined && usage.tokens >= budget.maxTokens) {
    return `token budget exhausted: ${usage.tokens} of ${budget.maxTokens} tokens used`;
  }
  if (budget.maxWallMs !== undefined && usage.elapsedMs >= budget.maxWallMs) {
    return `wall-time budget exhausted: ${Math.round(usage.elapsedMs)} of ${budget.maxWallMs} ms used`;
  }
  return null;
}

/**
 * Which budget `exhaustedBudget` would report, checked in the same order; null while within
 * budget. The `onBudgetExhausted` hook is offered turns and tokens only, never wall time.
 */
export function exhaustedBudgetKind(
  budget: Budget,
  usage: BudgetUsage,
): "turns" | "tokens" | "wall" | null {
  if (budget.maxTurns !== undefined && usage.turns >= budget.maxTurns) return "turns";
  if (budget.maxTokens !== undefined && usage.tokens >= budget.maxTokens) return "tokens";
  if (budget.maxWallMs !== undefined && usage.elapsedMs >= budget.maxWallMs) return "wall";
  return null;
}

/** How long the next await may take before the wall budget runs out; Infinity without one. */
export function remainingWallMs(budget: Budget, elapsedMs: number): number {
  return budget.maxWallMs === undefined ? Infinity : Math.max(0, budget.maxWallMs - elapsedMs);
}
