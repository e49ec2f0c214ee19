import { z } from "zod";

/** A limit's key: a function of the episode's input (a customer, a tenant, a model). */
export type LimitKeyFn = (input: unknown) => string;

const ZLimitKeyFn = z.custom<LimitKeyFn>(
  (value) => typeof value === "function",
  "must be a function of the input that returns a string",
);

/** Limits up to this many: a larger one is almost surely a unit mistake. */
const MAX_LIMIT = 100_000;

/**
 * Cluster-wide concurrency (SPEC section 16), on an actor or an expectation: never more than
 * `global` of its episodes running at once across all nodes, and never more than
 * `perKey.limit` with the same `perKey.key(input)`. On top of each node's maxConcurrentEpisodes.
 */
export const ZConcurrency = z
  .strictObject({
    global: z.number().int().min(1).max(MAX_LIMIT).optional(),
    perKey: z
      .strictObject({ key: ZLimitKeyFn, limit: z.number().int().min(1).max(MAX_LIMIT) })
      .optional(),
  })
  .refine(
    (value) => value.global !== undefined || value.perKey !== undefined,
    "set global, perKey or both",
  );
export type Concurrency = z.infer<typeof ZConcurrency>;

/**
 * A cluster-wide rate limit (SPEC section 16): at most `limit` starts in any `periodMs`
 * (a sliding window, database clock), per `key(input)` when given.
 */
export const ZRateLimit = z.strictObject({
  limit: z.number().int().min(1).max(MAX_LIMIT),
  periodMs: z.number().int().min(1).max(86_400_000),
  key: ZLimitKeyFn.optional(),
});
export type RateLimit = z.infer<typeof ZRateLimit>;

/** What an actor or an expectation may declare. */
export interface LimitDeclaration {
  readonly concurrency?: Concurrency | undefined;
  readonly rateLimit?: RateLimit | undefined;
}
