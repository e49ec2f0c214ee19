import { z } from "zod";

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
  | { kind: "invalid"; message: string };

/** Validates and normalises a step's return value; a step counts one turn unless it says so. */
export function checkStepResult(value: unknown): CheckedStepResult {
  const present =
    typeof value === "object" && value !== null ? OUTCOMES.filter((key) => key in value) : [];
  const kind = present.length === 1 ? present[0] : undefined;
  const invalid = (why: string): CheckedStepResult => ({
    kind: "invalid",
    message: `step returned ${describe(value)} (${why}); expected exactly one of { continue }, { done: true }, { fail: true, errorClass, message }`,
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
  }
}

function usageOf(usage: { turns?: number; tokens?: number } | undefined, data: unknown): Usage {
  return { turns: usage?.turns ?? 1, tokens: usage?.tokens ?? 0, data };
}

function describe(value: unknown): string {
  if (value === null || typeof value !== "object") return String(value);
  return `an object with keys [${Object.keys(value).join(", ")}]`;
}
