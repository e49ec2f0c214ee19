/**
 * `cyclium_episodes.error_class` values the runtime writes itself. A strategy's own failures use
 * the class it returns (`fail(errorClass, ...)`) or, when it throws, the error's `code` (a
 * string) or else its `name`.
 */
export const RUNTIME_ERROR_CLASSES = {
  /** maxTurns, maxTokens or maxWallMs was exhausted (SPEC section 2). */
  budgetExceeded: "budget_exceeded",
  /** The expectation names a strategy that is not in the StrategyRegistry. */
  unknownStrategy: "unknown_strategy",
  /** The episode's actor or expectation is not defined (any more) on the node that ran it. */
  unknownActor: "unknown_actor",
  /** `step` returned something that is not a StepResult. */
  invalidStepResult: "invalid_step_result",
  /** Its deferred trigger request waited longer than the TTL (SPEC section 6). */
  expired: "expired",
  /** Cancelled to make room in a full queue (`episodeOverflow: 'shed_oldest'`). */
  shed: "shed",
} as const;

const MAX_ERROR_CLASS_LENGTH = 255;
const MAX_ERROR_MESSAGE_LENGTH = 8_000;

const MAX_ERROR_STACK_LENGTH = 16_000;

/**
 * The class and message kept on the episode for an exception a strategy threw, and its stack,
 * kept with the attempt's error (cyclium_episode_attempts) for the operator's attempt timeline.
 */
export function describeThrown(error: unknown): {
  errorClass: string;
  message: string;
  stack?: string;
} {
  if (error instanceof Error) {
    const code = "code" in error && typeof error.code === "string" ? error.code : undefined;
    const clipped = clip(code ?? error.name, error.message);
    return typeof error.stack === "string" && error.stack !== ""
      ? { ...clipped, stack: error.stack.slice(0, MAX_ERROR_STACK_LENGTH) }
      : clipped;
  }
  return clip("thrown_value", typeof error === "string" ? error : safeJson(error));
}

export function clip(errorClass: string, message: string): { errorClass: string; message: string } {
  return {
    errorClass: (errorClass.trim() || "Error").slice(0, MAX_ERROR_CLASS_LENGTH),
    message: message.slice(0, MAX_ERROR_MESSAGE_LENGTH),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
