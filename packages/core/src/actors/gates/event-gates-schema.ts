import { z } from "zod";

const ZScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * `filter`: every listed payload field (dot paths, e.g. `resource.kind`) must equal the value, or
 * be one of an `{ in: [...] }` list. Anything richer belongs in the strategy.
 */
export const ZEventFilter = z.record(
  z.string().min(1),
  z.union([ZScalar, z.strictObject({ in: z.array(ZScalar).min(1) })]),
);
export type TEventFilter = z.infer<typeof ZEventFilter>;

/** Cyclium's defaults (issue 20): five failures in a row open the breaker for a minute. */
export const DEFAULT_CIRCUIT_BREAKER = Object.freeze({ threshold: 5, halfOpenAfterMs: 60_000 });

export const ZCircuitBreaker = z.strictObject({
  /** Consecutive failed or cancelled episodes of the expectation that open the breaker. */
  threshold: z.number().int().positive().default(DEFAULT_CIRCUIT_BREAKER.threshold),
  /** How long the breaker stays open before one trial fire may pass (half-open). */
  halfOpenAfterMs: z.number().int().positive().default(DEFAULT_CIRCUIT_BREAKER.halfOpenAfterMs),
});
export type TCircuitBreaker = z.infer<typeof ZCircuitBreaker>;

/**
 * A trigger's `circuitBreaker`: left out, the defaults guard it; an object overrides either limit;
 * `false` switches the breaker off (a trigger whose failures are expected, e.g. a probe).
 */
export const ZCircuitBreakerOption = z.union([z.literal(false), ZCircuitBreaker]).optional();
export type TCircuitBreakerOption = z.input<typeof ZCircuitBreakerOption>;

/** The gates of an event trigger (SPEC 12), applied in this order by the event gate. */
export const ZEventGates = {
  filter: ZEventFilter.optional(),
  /** Payload field (dot path) naming the subject: cooldown and debounce are kept per subject. */
  subjectKey: z.string().min(1).optional(),
  cooldownMs: z.number().int().positive().optional(),
  debounceMs: z.number().int().positive().optional(),
  circuitBreaker: ZCircuitBreakerOption,
};

export interface EventGatesConfig {
  filter?: TEventFilter | undefined;
  subjectKey?: string | undefined;
  cooldownMs?: number | undefined;
  debounceMs?: number | undefined;
  circuitBreaker?: TCircuitBreaker | false | undefined;
}
