import { z } from "zod";
import type { Queryable } from "../db/index";
import type { Logger } from "../telemetry/index";
import { ZCircuitBreakerOption, ZEventGates } from "./gates/event-gates-schema";
import { validateCronExpression, validateTimezone } from "./validate-schedule";

/** What a poll function gets each time it runs. */
export interface PollContext {
  readonly signal: AbortSignal;
  readonly db: Queryable;
  readonly logger: Logger;
}

/**
 * What a poll function returns: `false`/`null`/`undefined` skip, `true` fires with no context,
 * `{ context }` fires with that context (it becomes the episode's input and, hashed, its dedupe
 * key: the same context fires once until that episode is archived).
 */
export type PollOutcome = boolean | null | undefined | { context: Record<string, unknown> };

export type PollFunction = (ctx: PollContext) => PollOutcome | Promise<PollOutcome>;

/** An event trigger with its optional gates (SPEC 12: filter, cooldown, debounce, breaker). */
export const ZEventTrigger = z.strictObject({
  event: z.string().trim().min(1).max(255),
  ...ZEventGates,
});

export const ZScheduleTrigger = z.strictObject({
  schedule: z.string().trim().min(1).superRefine(validateCronExpression),
  timezone: z.string().trim().min(1).default("UTC").superRefine(validateTimezone),
  /** Defaults to 5 failures / 60 s like every trigger kind; `false` switches it off. */
  circuitBreaker: ZCircuitBreakerOption,
});

export const ZPollTrigger = z.strictObject({
  poll: z.custom<PollFunction>((value) => typeof value === "function", "must be a function"),
  // Below 100 ms every node would hammer the database with polls and dedupe inserts.
  intervalMs: z.number().int().min(100),
  circuitBreaker: ZCircuitBreakerOption,
});

/** Manual-only: the expectation fires only through `fire()` (any expectation can). */
export const ZManualTrigger = z.strictObject({ manual: z.literal(true) });

/** Each trigger kind's schema, by kind (REST's OpenAPI document describes `ZTrigger` by them). */
export const TRIGGER_KINDS = {
  event: ZEventTrigger,
  schedule: ZScheduleTrigger,
  poll: ZPollTrigger,
  manual: ZManualTrigger,
} as const;

export type TriggerKind = keyof typeof TRIGGER_KINDS;

const KIND_NAMES = Object.keys(TRIGGER_KINDS) as TriggerKind[];

/** Which kind a trigger object is, by its distinguishing key; undefined when none (or several). */
export function triggerKindOf(value: unknown): TriggerKind | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const kinds = KIND_NAMES.filter((kind) => kind in value);
  return kinds.length === 1 ? kinds[0] : undefined;
}

/**
 * One trigger. Not a plain `z.union`: its error for `{ evnt: "x" }` would list every branch's
 * complaints, while an operator needs to read "unknown trigger kind" and the accepted shapes.
 */
export const ZTrigger = z.unknown().transform((value, ctx) => {
  const kind = triggerKindOf(value);
  if (kind === undefined) {
    const keys =
      typeof value === "object" && value !== null ? Object.keys(value).join(", ") : typeof value;
    ctx.addIssue({
      code: "custom",
      message:
        `unknown trigger kind (got ${keys || "no keys"}); expected exactly one of ` +
        `{ event }, { schedule, timezone? }, { poll, intervalMs }, { manual: true }`,
    });
    return z.NEVER;
  }
  const parsed = TRIGGER_KINDS[kind].safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    }
    return z.NEVER;
  }
  return parsed.data;
});

export type EventTrigger = z.infer<typeof ZEventTrigger>;
export type ScheduleTrigger = z.infer<typeof ZScheduleTrigger>;
export type PollTrigger = z.infer<typeof ZPollTrigger>;
export type ManualTrigger = z.infer<typeof ZManualTrigger>;
export type Trigger = EventTrigger | ScheduleTrigger | PollTrigger | ManualTrigger;
/** What callers write: the timezone may be left out (UTC). */
export type TriggerInput =
  | z.input<typeof ZEventTrigger>
  | z.input<typeof ZScheduleTrigger>
  | z.input<typeof ZPollTrigger>
  | ManualTrigger;
