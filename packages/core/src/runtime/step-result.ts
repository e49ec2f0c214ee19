import { z } from "zod";
import type { EpisodeWaitRequest } from "../waits/episode-wait";

/** The longest wait a step may ask for, a year: a longer one is almost surely a unit mistake. */
export const MAX_WAIT_MS = 365 * 24 * 60 * 60 * 1000;

/** A checked wait (waits/episode-wait.ts). */
export type CheckedWait = EpisodeWaitRequest;

const ZUsage = z
  .strictObject({
    turns: z.number().int().min(0).optional(),
    tokens: z.number().int().min(0).optional(),
  })
  .optional();

// Strategies are user code (and, for dynamic actors, chosen at run time): their return value is
// a boundary, so it is checked rather than trusted. Which schema applies is decided by the one
// outcome key present, so `{ done: true }` can never be read as a `continue` with no state.
const SCHEMAS = {
  continue: z.object({ continue: z.unknown(), usage: ZUsage, data: z.unknown().optional() }),
  done: z.object({
    done: z.literal(true),
    result: z.unknown().optional(),
    usage: ZUsage,
    data: z.unknown().optional(),
  }),
  fail: z.object({
    fail: z.literal(true),
    errorClass: z.string().min(1),
    message: z.string(),
    usage: ZUsage,
    data: z.unknown().optional(),
    retry: z.literal(false).optional(),
  }),
  wait: z.object({
    wait: z.union([
      z.strictObject({ ms: z.number().int().min(0).max(MAX_WAIT_MS) }),
      z.strictObject({ until: z.union([z.date(), z.iso.datetime({ offset: true })]) }),
      z.strictObject({
        signal: z.string().min(1).max(255),
        timeoutMs: z.number().int().min(0).max(MAX_WAIT_MS).optional(),
      }),
    ]),
    state: z.unknown().optional(),
    usage: ZUsage,
    data: z.unknown().optional(),
  }),
} as const;

type Outcome = keyof typeof SCHEMAS;
const OUTCOMES = Object.keys(SCHEMAS) as Outcome[];

interface Usage {
  turns: number;
  tokens: number;
  data: unknown;
}

export type CheckedStepResult =
  | ({ kind: "continue"; state: unknown } & Usage)
  | ({ kind: "done"; result: unknown } & Usage)
  | ({ kind: "fail"; errorClass: string; message: string; retry?: false } & Usage)
  /** `state`: absent when the step gave none (it resumes with the state it was called with). */
  | ({ kind: "wait"; wait: CheckedWait; state?: unknown; hasState: boolean } & Usage)
  | { kind: "invalid"; message: string };

/** Validates and normalises a step's return value; a step counts one turn unless it says so. */
export function checkStepResult(value: unknown): CheckedStepResult {
  const present =
    typeof value === "object" && value !== null ? OUTCOMES.filter((key) => key in value) : [];
  const kind = present.length === 1 ? present[0] : undefined;
  const invalid = (why: string): CheckedStepResult => ({
    kind: "invalid",
    message: `step returned ${describe(value)} (${why}); expected exactly one of { continue }, { done: true }, { fail: true, errorClass, message }, { wait }`,
  });
  if (kind === undefined) return invalid("no single outcome key");
  switch (kind) {
    case "continue": {
      const parsed = SCHEMAS.continue.safeParse(value);
      if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "invalid");
      const { usage, data } = parsed.data;
      return { kind, state: parsed.data.continue, ...usageOf(usage, data) };
    }
    case "done": {
      const parsed = SCHEMAS.done.safeParse(value);
      if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "invalid");
      const { usage, data } = parsed.data;
      return { kind, result: parsed.data.result, ...usageOf(usage, data) };
    }
    case "fail": {
      const parsed = SCHEMAS.fail.safeParse(value);
      if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "invalid");
      const { usage, data, errorClass, message, retry } = parsed.data;
      return {
        kind,
        errorClass,
        message,
        ...(retry === false ? { retry } : {}),
        ...usageOf(usage, data),
      };
    }
    case "wait": {
      const parsed = SCHEMAS.wait.safeParse(value);
      if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "invalid");
      const { usage, data } = parsed.data;
      const hasState = typeof value === "object" && value !== null && "state" in value;
      return {
        kind,
        wait: checkedWait(parsed.data.wait),
        state: parsed.data.state,
        hasState: hasState && parsed.data.state !== undefined,
        ...usageOf(usage, data),
      };
    }
  }
}

function checkedWait(wait: z.infer<typeof SCHEMAS.wait>["wait"]): CheckedWait {
  if ("signal" in wait) {
    return { kind: "signal", signal: wait.signal, timeoutMs: wait.timeoutMs ?? null };
  }
  if ("ms" in wait) return { kind: "sleep", delayMs: wait.ms };
  return { kind: "sleep", until: new Date(wait.until) };
}

function usageOf(usage: { turns?: number; tokens?: number } | undefined, data: unknown): Usage {
  return { turns: usage?.turns ?? 1, tokens: usage?.tokens ?? 0, data };
}

function describe(value: unknown): string {
  if (value === null || typeof value !== "object") return String(value);
  return `an object with keys [${Object.keys(value).join(", ")}]`;
}
