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

export const ZCircuitBreaker = z.strictObject({
  /** Consecutive failed or cancelled episodes of the expectation that open the breaker. */
  threshold: z.number().int().positive(),
  /** How long the breaker stays open before one trial fire may pass (half-open). */
  halfOpenAfterMs: z.number().int().positive(),
});
export type TCircuitBreaker = z.infer<typeof ZCircuitBreaker>;

/** The gates of an event trigger (SPEC 12), applied in this order by the event gate. */
export const ZEventGates = {
  filter: ZEventFilter.optional(),
  /** Payload field (dot path) naming the subject: cooldown and debounce are kept per subject. */
  subjectKey: z.string().min(1).optional(),
  cooldownMs: z.number().int().positive().optional(),
  debounceMs: z.number().int().positive().optional(),
  circuitBreaker: ZCircuitBreaker.optional(),
};

export interface EventGatesConfig {
  filter?: TEventFilter | undefined;
  subjectKey?: string | undefined;
  cooldownMs?: number | undefined;
  debounceMs?: number | undefined;
  circuitBreaker?: TCircuitBreaker | undefined;
}
