import { z } from "zod";
import { ZRecoveryPolicy, type RecoveryPolicy } from "../recovery/recovery-policy";
import { isStrategy, type AnyStrategy } from "./strategy";
import { ZTrigger, type Trigger, type TriggerInput } from "./trigger";

/** What happens when an actor's queue is full (SPEC section 12). */
export const EPISODE_OVERFLOWS = ["queue", "drop", "shed_oldest"] as const;
export const ZEpisodeOverflow = z.enum(EPISODE_OVERFLOWS);
export type EpisodeOverflow = z.infer<typeof ZEpisodeOverflow>;

/** Enforced by the runner; an overrun fails the episode with `budget_exceeded`. */
export const ZBudget = z.strictObject({
  maxTurns: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  maxWallMs: z.number().int().positive().optional(),
});
export type Budget = z.infer<typeof ZBudget>;

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

export const ZExpectation = z.strictObject({
  id: ZIdentifier,
  strategy: ZStrategyRef,
  trigger: ZTrigger,
  recoveryPolicy: ZRecoveryPolicy.default("fail"),
  budget: ZBudget.default({}),
});

export interface ExpectationDefinition {
  readonly id: string;
  readonly strategy: StrategyRef;
  readonly trigger: Trigger;
  readonly recoveryPolicy: RecoveryPolicy;
  readonly budget: Budget;
}

/** What `defineActor` accepts: defaults may be left out. */
export interface ExpectationInput {
  id: string;
  strategy: StrategyRef;
  trigger: TriggerInput;
  recoveryPolicy?: RecoveryPolicy;
  budget?: Budget;
}

export const DEFAULT_MAX_CONCURRENT_EPISODES = 4;

export const ZActorDefinition = z
  .strictObject({
    identifier: ZIdentifier,
    maxConcurrentEpisodes: z.number().int().positive().max(10_000).default(4),
    episodeOverflow: ZEpisodeOverflow.default("queue"),
    /** Queue length at which `drop` / `shed_oldest` apply; `queue` never limits. */
    maxQueuedEpisodes: z.number().int().positive().optional(),
    /** Stacks this actor runs on; empty or absent = every stack. */
    stacks: z.array(z.string().trim().min(1).max(255)).default([]),
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

export interface ActorDefinition {
  readonly identifier: string;
  readonly maxConcurrentEpisodes: number;
  readonly episodeOverflow: EpisodeOverflow;
  readonly maxQueuedEpisodes: number | undefined;
  readonly stacks: readonly string[];
  readonly expectations: readonly ExpectationDefinition[];
  readonly source: ActorSource;
}

export interface ActorInput {
  identifier: string;
  maxConcurrentEpisodes?: number;
  episodeOverflow?: EpisodeOverflow;
  maxQueuedEpisodes?: number;
  stacks?: string[];
  expectations: ExpectationInput[];
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
