import { z } from "zod";
import {
  ZConcurrency,
  ZRateLimit,
  type Concurrency,
  type RateLimit,
} from "../limits/limit-definition";
import { ZRecoveryPolicy, type RecoveryPolicy } from "./recovery-policy";
import { isStrategy, type AnyStrategy } from "./strategy";
import { ZTrigger, type Trigger, type TriggerInput } from "./trigger";

/** What happens when an actor's queue is full (SPEC section 12). */
export const EPISODE_OVERFLOWS = ["queue", "drop", "shed_oldest"] as const;
export const ZEpisodeOverflow = z.enum(EPISODE_OVERFLOWS);
export type EpisodeOverflow = z.infer<typeof ZEpisodeOverflow>;

/**
 * Cyclium's default budget per expectation (issue 20): 12 turns, 25,000 tokens, 120 s of wall
 * time, so a runaway strategy always stops. Each limit left out of a declared budget takes its
 * default; a strategy that needs more says so.
 */
export const DEFAULT_BUDGET = Object.freeze({
  maxTurns: 12,
  maxTokens: 25_000,
  maxWallMs: 120_000,
});

/** Enforced by the runner; an overrun fails the episode with `budget_exceeded`. */
export const ZBudget = z.strictObject({
  maxTurns: z.number().int().positive().default(DEFAULT_BUDGET.maxTurns),
  maxTokens: z.number().int().positive().default(DEFAULT_BUDGET.maxTokens),
  maxWallMs: z.number().int().positive().default(DEFAULT_BUDGET.maxWallMs),
});
/**
 * The limits the runner enforces. The fields stay optional in the type so a hand-built budget
 * (tests, the runtime's own callers) may still leave one out: an absent limit is not checked.
 */
export type Budget = Partial<z.output<typeof ZBudget>>;
/** What a declaration may give: any limit left out takes its default. */
export type BudgetInput = z.input<typeof ZBudget>;

const IDENTIFIER = /^[a-z][a-z0-9_.-]*$/i;

export const ZIdentifier = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(IDENTIFIER, "must start with a letter and contain only letters, digits, _ . -");

/** A strategy object, or the name of one in the StrategyRegistry (resolved when it runs). */
export const ZStrategyRef = z.union([
  z.string().trim().min(1).max(255),
  z.custom<AnyStrategy>(isStrategy, "must be a strategy name or an object with init and step"),
]);
export type StrategyRef = z.infer<typeof ZStrategyRef>;

/** An expectation's input schema: a zod schema (only code declares one; the database cannot). */
export const ZInputSchema = z.custom<z.ZodType>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as { safeParse?: unknown }).safeParse === "function",
  "must be a zod schema",
);

/**
 * An expectation's signals (SPEC 17): names to zod schemas of their payloads. Code-only as a
 * whole, as an input schema is: a dynamic actor's JSON cannot carry zod.
 */
export const ZSignalSchemas = z.custom<Record<string, z.ZodType>>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.entries(value).every(
      ([name, schema]) =>
        ZIdentifier.safeParse(name).success && ZInputSchema.safeParse(schema).success,
    ),
  "must map signal names (a letter, then letters, digits, _ . -) to zod schemas",
);

/** Fire priorities (SPEC section 16): higher is claimed first; 0 unless the fire or expectation sets one. */
export const MIN_PRIORITY = 0;
export const MAX_PRIORITY = 10;
export const ZPriority = z.number().int().min(MIN_PRIORITY).max(MAX_PRIORITY);
/** The longest delay a fire may ask for, a year: a longer one is almost surely a unit mistake. */
export const MAX_FIRE_DELAY_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Automatic retries (SPEC section 16): a failed attempt with attempts left goes back to pending
 * with its next run delayed by exponential backoff (initialMs x factor^(n-1), capped at maxMs,
 * each delay drawn between half and all of it). `maxAttempts` counts every run of the episode,
 * recovery restarts and hand-backs included; 1 (the default) never retries.
 */
export const ZRetry = z.strictObject({
  maxAttempts: z.number().int().min(1).max(100),
  backoff: z
    .strictObject({
      initialMs: z.number().int().min(0).max(86_400_000).default(1_000),
      maxMs: z.number().int().min(0).max(86_400_000).default(300_000),
      factor: z.number().min(1).max(10).default(2),
    })
    .prefault({}),
});
export type Retry = z.infer<typeof ZRetry>;
export type RetryInput = z.input<typeof ZRetry>;

export const ZExpectation = z.strictObject({
  id: ZIdentifier,
  strategy: ZStrategyRef,
  trigger: ZTrigger,
  recoveryPolicy: ZRecoveryPolicy.default("fail"),
  budget: ZBudget.prefault({}),
  input: ZInputSchema.optional(),
  priority: ZPriority.optional(),
  retry: ZRetry.optional(),
  concurrency: ZConcurrency.optional(),
  rateLimit: ZRateLimit.optional(),
  signals: ZSignalSchemas.optional(),
});

/**
 * `Id` and `Input` carry what `defineActor` saw to the type level, so a client typed by the
 * deployment knows each expectation's id and the input it takes; they default to the loose
 * types every runtime path uses.
 */
export interface ExpectationDefinition<Id extends string = string, Input = unknown> {
  readonly id: Id;
  readonly strategy: StrategyRef;
  readonly trigger: Trigger;
  readonly recoveryPolicy: RecoveryPolicy;
  readonly budget: Budget;
  /** Validates a fire's input before the episode is created (by `createClient`). */
  readonly input?: z.ZodType<unknown, Input> | undefined;
  /** The priority of its deferred fires when the fire names none (default 0). */
  readonly priority?: number | undefined;
  /** Automatic retries with backoff; absent: a failure is final (one attempt). */
  readonly retry?: Retry | undefined;
  /** Cluster-wide concurrency of this expectation's episodes (SPEC section 16). */
  readonly concurrency?: Concurrency | undefined;
  /** Cluster-wide rate limit of this expectation's starts (SPEC section 16). */
  readonly rateLimit?: RateLimit | undefined;
  /**
   * The signals its episodes accept (SPEC section 17), each with the zod schema of its payload:
   * `client.signal`, REST and the console validate a delivery against it.
   */
  readonly signals?: Readonly<Record<string, z.ZodType>> | undefined;
}

/** What `defineActor` accepts: defaults may be left out. */
export interface ExpectationInput {
  id: string;
  strategy: StrategyRef;
  trigger: TriggerInput;
  recoveryPolicy?: RecoveryPolicy;
  budget?: BudgetInput;
  /** A zod schema of the input a fire must carry; checked by `createClient` before it fires. */
  input?: z.ZodType | undefined;
  /** MIN_PRIORITY..MAX_PRIORITY: the priority of its fires that name none (default 0). */
  priority?: number | undefined;
  /** `{ maxAttempts, backoff? }`: retry a failed attempt after a backoff (default: no retry). */
  retry?: RetryInput | undefined;
  /** `{ global?, perKey?: { key, limit } }`: at most that many running across all nodes. */
  concurrency?: Concurrency | undefined;
  /** `{ limit, periodMs, key? }`: at most `limit` starts per period across all nodes. */
  rateLimit?: RateLimit | undefined;
  /** `{ approval: z.object({ ... }) }`: the signals a `waitFor` may wait for, with their payloads. */
  signals?: Record<string, z.ZodType> | undefined;
}

/** The typed definition of one declared expectation (distributes over a union). */
export type ExpectationDefinitionOf<E> = E extends { id: infer Id extends string }
  ? E extends { input: infer S extends z.ZodType }
    ? ExpectationDefinition<Id, z.input<S>>
    : ExpectationDefinition<Id>
  : never;

/** Cyclium's default (issue 20): three episodes of an actor at once per node. */
export const DEFAULT_MAX_CONCURRENT_EPISODES = 3;

export const ZActorDefinition = z
  .strictObject({
    identifier: ZIdentifier,
    maxConcurrentEpisodes: z
      .number()
      .int()
      .positive()
      .max(10_000)
      .default(DEFAULT_MAX_CONCURRENT_EPISODES),
    episodeOverflow: ZEpisodeOverflow.default("queue"),
    /**
     * Queue length at which `drop` / `shed_oldest` apply; `queue` never limits. 0 is no queue at
     * all: a fire while every slot is busy is dropped (`shed_oldest` too: nothing waits to shed).
     */
    maxQueuedEpisodes: z.number().int().min(0).optional(),
    /** Stacks this actor runs on; empty or absent = every stack. */
    stacks: z.array(z.string().trim().min(1).max(255)).default([]),
    /** Cluster-wide limits over all the actor's expectations (SPEC section 16). */
    concurrency: ZConcurrency.optional(),
    rateLimit: ZRateLimit.optional(),
    expectations: z.array(ZExpectation).min(1, "an actor needs at least one expectation"),
  })
  .superRefine((actor, ctx) => {
    const seen = new Set<string>();
    actor.expectations.forEach((expectation, index) => {
      if (seen.has(expectation.id)) {
        ctx.addIssue({
          code: "custom",
          path: ["expectations", index, "id"],
          message: `duplicate expectation id "${expectation.id}"`,
        });
      }
      seen.add(expectation.id);
    });
    if (actor.episodeOverflow !== "queue" && actor.maxQueuedEpisodes === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["maxQueuedEpisodes"],
        message: `episodeOverflow "${actor.episodeOverflow}" needs maxQueuedEpisodes`,
      });
    }
  });

/** Where a definition came from: code (`defineActor`) or a cyclium_agent_definitions row. */
export type ActorSource = "compiled" | "dynamic";

export interface ActorDefinition<
  Id extends string = string,
  E extends ExpectationDefinition = ExpectationDefinition,
> {
  readonly identifier: Id;
  readonly maxConcurrentEpisodes: number;
  readonly episodeOverflow: EpisodeOverflow;
  readonly maxQueuedEpisodes: number | undefined;
  readonly stacks: readonly string[];
  /** Cluster-wide concurrency over all its expectations' episodes (SPEC section 16). */
  readonly concurrency?: Concurrency | undefined;
  /** Cluster-wide rate limit over all its expectations' starts (SPEC section 16). */
  readonly rateLimit?: RateLimit | undefined;
  readonly expectations: readonly E[];
  readonly source: ActorSource;
}

export interface ActorInput {
  identifier: string;
  maxConcurrentEpisodes?: number;
  episodeOverflow?: EpisodeOverflow;
  maxQueuedEpisodes?: number;
  stacks?: readonly string[];
  concurrency?: Concurrency | undefined;
  rateLimit?: RateLimit | undefined;
  expectations: readonly ExpectationInput[];
}

/** True when the actor runs on a node of `stack` (SPEC section 8, `stacks: [...]`). */
export function runsOnStack(actor: Pick<ActorDefinition, "stacks">, stack: string | null): boolean {
  if (actor.stacks.length === 0) return true;
  return stack !== null && actor.stacks.includes(stack);
}

export function findExpectation(
  actor: ActorDefinition,
  expectationId: string,
): ExpectationDefinition | undefined {
  return actor.expectations.find((expectation) => expectation.id === expectationId);
}
