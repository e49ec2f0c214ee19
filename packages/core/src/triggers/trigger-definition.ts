import { z } from "zod";
import { CycliumError } from "../errors/index";
import { CronSchedule } from "./cron-schedule";
import { IntervalSchedule, MIN_INTERVAL_MS } from "./interval-schedule";
import { ZTriggerBreaker, ZTriggerBreakerOption, type TTriggerBreaker } from "./trigger-breaker";

/**
 * What a cron trigger does with windows that passed while no node ran it (or it was paused):
 * `skip` fires none of them, `latest` fires the newest once, `run_all` fires each once, oldest
 * first, up to `catchUpLimit`. Cloacina's `skip` (its stored next run fires once, however late)
 * is our `latest`; its `run_all` is ours (docs/api.md).
 */
export const CATCH_UP_POLICIES = ["skip", "latest", "run_all"] as const;
export type CatchUpPolicy = (typeof CATCH_UP_POLICIES)[number];

/** Cloacina's cap on a `run_all` catch-up: one outage never turns into more fires than this. */
export const DEFAULT_CATCH_UP_LIMIT = 100;

export type TriggerContext = Record<string, unknown>;

/** What a poll function decides, told apart by `kind`: fire (optionally with a context) or skip. */
export type TriggerPollResult =
  { kind: "fire"; context?: TriggerContext | undefined } | { kind: "skip" };

/** `TriggerResult.fire(ctx)` / `TriggerResult.skip()`; a poll may also return a plain boolean. */
export const TriggerResult = {
  fire: (context?: TriggerContext): TriggerPollResult => ({ kind: "fire", context }),
  skip: (): TriggerPollResult => ({ kind: "skip" }),
} as const;

/** A poll function's answer as a decision; undefined for anything else plain JavaScript returns. */
export function pollDecision(raw: unknown): TriggerPollResult | undefined {
  if (typeof raw === "boolean") return raw ? TriggerResult.fire() : TriggerResult.skip();
  if (typeof raw !== "object" || raw === null) return undefined;
  const decision = raw as Partial<Record<"kind" | "context", unknown>>;
  if (decision.kind === "skip") return TriggerResult.skip();
  if (decision.kind !== "fire") return undefined;
  const context = decision.context;
  if (context === undefined) return TriggerResult.fire();
  if (typeof context !== "object" || context === null || Array.isArray(context)) return undefined;
  return TriggerResult.fire(context as TriggerContext);
}

export interface TriggerPollArgs {
  triggerName: string;
  env: string | null;
  /** Aborted when the poll runs past its timeout: the scheduler has abandoned this call. */
  signal: AbortSignal;
}

export type TriggerPoll = (
  args: TriggerPollArgs,
) => TriggerPollResult | boolean | Promise<TriggerPollResult | boolean>;

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,254}$/;
const ZName = z.string().regex(NAME, "letters, digits, '_', '.', ':' or '-', up to 255");

/** How a schedule's windows fire, alike for cron and interval triggers. */
const ZWindowPolicy = {
  catchUp: z.enum(CATCH_UP_POLICIES).default("skip"),
  /** How late a window may still fire on its own; older windows count as missed. */
  misfireGraceMs: z.number().int().min(0).default(60_000),
  /** With `catchUp: 'run_all'`: at most this many missed windows fire after an outage. */
  catchUpLimit: z.number().int().min(1).max(10_000).default(DEFAULT_CATCH_UP_LIMIT),
};

const ZCronTriggerInput = z.strictObject({
  name: ZName,
  /** The primary workflow. */
  on: ZName,
  cron: z.string().min(1).max(255),
  timezone: z.string().min(1).max(64).default("UTC"),
  ...ZWindowPolicy,
});

/**
 * Every `intervalMs` (issue 20, Cyclium's interval schedules): windows on a grid of multiples of
 * the interval since the epoch, each claimed and fired once per cluster like a cron window, with
 * the same catch-up policies.
 */
const ZIntervalTriggerInput = z.strictObject({
  name: ZName,
  on: ZName,
  intervalMs: z.number().int().min(MIN_INTERVAL_MS).max(2_147_483_647),
  ...ZWindowPolicy,
});

const ZPollTriggerInput = z.strictObject({
  name: ZName,
  on: ZName,
  poll: z.custom<TriggerPoll>((value) => typeof value === "function", "a function"),
  pollIntervalMs: z.number().int().min(100).max(2_147_483_647),
  /** Fire again while a firing with the same context is still open. */
  allowConcurrent: z.boolean().default(false),
  /** A poll still running after this long is abandoned; unset: the scheduler's (30 s). */
  pollTimeoutMs: z.number().int().min(1).max(2_147_483_647).optional(),
  /**
   * Stops polling after consecutive failed firings, with a growing wait before each trial
   * (trigger-breaker.ts); left out, the defaults; `false`, none.
   */
  circuitBreaker: ZTriggerBreakerOption,
});

export type TCronTriggerInput = z.input<typeof ZCronTriggerInput>;
export type TPollTriggerInput = z.input<typeof ZPollTriggerInput>;
export type TIntervalTriggerInput = z.input<typeof ZIntervalTriggerInput>;

interface TriggerDefinitionBase {
  name: string;
  /** The primary workflow: drives the firing record, the return value and errors. */
  on: string;
  /** False for a plain cron schedule: it binds exactly its one workflow, no subscribers. */
  fanOut: boolean;
  allowConcurrent: boolean;
}

interface WindowPolicy {
  catchUp: CatchUpPolicy;
  misfireGraceMs: number;
  catchUpLimit: number;
}

export interface CronTriggerDefinition extends TriggerDefinitionBase, WindowPolicy {
  kind: "cron";
  schedule: CronSchedule;
}

export interface IntervalTriggerDefinition extends TriggerDefinitionBase, WindowPolicy {
  kind: "interval";
  schedule: IntervalSchedule;
}

/** Triggers that fire windows of a schedule (cron instants or interval ticks). */
export type WindowTriggerDefinition = CronTriggerDefinition | IntervalTriggerDefinition;

export interface PollTriggerDefinition extends TriggerDefinitionBase {
  kind: "poll";
  poll: TriggerPoll;
  pollIntervalMs: number;
  pollTimeoutMs: number | undefined;
  /** null: switched off (`circuitBreaker: false`). */
  circuitBreaker: TTriggerBreaker | null;
}

export type TriggerDefinition =
  CronTriggerDefinition | IntervalTriggerDefinition | PollTriggerDefinition;

/**
 * A named fan-out point (SPEC section 7). Everything is checked here, at definition time: names,
 * the cron expression and the IANA zone, so a typo stops the process at start-up instead of
 * leaving a trigger that never fires.
 */
export function defineTrigger(
  input: TCronTriggerInput | TIntervalTriggerInput | TPollTriggerInput,
): TriggerDefinition {
  if ("cron" in input) {
    const data = parse(ZCronTriggerInput, input);
    return Object.freeze({
      kind: "cron",
      schedule: CronSchedule.parse(data.cron, data.timezone),
      ...windowTriggerFields(data),
    });
  }
  if ("intervalMs" in input) {
    const data = parse(ZIntervalTriggerInput, input);
    return Object.freeze({
      kind: "interval",
      schedule: IntervalSchedule.of(data.intervalMs),
      ...windowTriggerFields(data),
    });
  }
  const data = parse(ZPollTriggerInput, input);
  return Object.freeze({
    kind: "poll",
    name: data.name,
    on: data.on,
    fanOut: true,
    allowConcurrent: data.allowConcurrent,
    poll: data.poll,
    pollIntervalMs: data.pollIntervalMs,
    pollTimeoutMs: data.pollTimeoutMs,
    circuitBreaker:
      data.circuitBreaker === false ? null : (data.circuitBreaker ?? ZTriggerBreaker.parse({})),
  });
}

/** What a cron and an interval trigger take from their parsed input alike. */
function windowTriggerFields(
  data: { name: string; on: string } & WindowPolicy,
): TriggerDefinitionBase & WindowPolicy {
  return {
    name: data.name,
    on: data.on,
    fanOut: true,
    allowConcurrent: false,
    catchUp: data.catchUp,
    misfireGraceMs: data.misfireGraceMs,
    catchUpLimit: data.catchUpLimit,
  };
}

export interface TCronScheduleInput {
  workflow: string;
  cron: string;
  timezone?: string;
  catchUp?: CatchUpPolicy;
  catchUpLimit?: number;
}

/**
 * A plain cron schedule for one workflow, without a trigger name of its own: it is stored and
 * paused like a trigger (as `schedule:{workflow}`) but never fans out to subscribers.
 */
export function defineCronSchedule(input: TCronScheduleInput): CronTriggerDefinition {
  const definition = defineTrigger({
    name: `schedule:${input.workflow}`,
    on: input.workflow,
    cron: input.cron,
    ...(input.timezone === undefined ? {} : { timezone: input.timezone }),
    ...(input.catchUp === undefined ? {} : { catchUp: input.catchUp }),
    ...(input.catchUpLimit === undefined ? {} : { catchUpLimit: input.catchUpLimit }),
  });
  if (definition.kind !== "cron")
    throw new Error("unreachable: a cron input defines a cron trigger");
  return Object.freeze({ ...definition, fanOut: false });
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const name =
      typeof input === "object" && input !== null && "name" in input
        ? JSON.stringify(input.name)
        : "";
    throw new CycliumError(
      "invalid_config",
      `Invalid trigger ${name}: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
