// The dynamic actor form's state and its conversion to and from what the server takes. Pure, so
// the form stays a view: the server validates with the loader's schema and names the field.
import type { TRouterInputs, TRouterOutputs } from "@/trpc/router-types";

export type TAgentDefinitionView = TRouterOutputs["agentDefinitions"]["list"][number];
export type TAgentDefinitionInput = TRouterInputs["agentDefinitions"]["create"];

export const TRIGGER_KINDS = ["manual", "event", "schedule"] as const;
export type TTriggerKind = (typeof TRIGGER_KINDS)[number];

export interface TExpectationDraft {
  /** React key only. */
  key: number;
  id: string;
  strategy: string;
  triggerKind: TTriggerKind;
  /** The event name or the cron expression, by kind. */
  rule: string;
  timezone: string;
  recoveryPolicy: "fail" | "restart";
  maxWallMs: string;
  /** The stored trigger and budget: fields the form does not show (event gates) survive edits. */
  original: { trigger: Record<string, unknown>; budget: Record<string, unknown> };
}

export interface TActorDraft {
  identifier: string;
  maxConcurrentEpisodes: string;
  stacks: string;
  enabled: boolean;
  expectations: TExpectationDraft[];
}

let nextKey = 1;

export function emptyExpectation(strategy = ""): TExpectationDraft {
  return {
    key: nextKey++,
    id: "",
    strategy,
    triggerKind: "manual",
    rule: "",
    timezone: "UTC",
    recoveryPolicy: "fail",
    maxWallMs: "",
    original: { trigger: {}, budget: {} },
  };
}

export function emptyDraft(strategy = ""): TActorDraft {
  return {
    identifier: "",
    maxConcurrentEpisodes: "3",
    stacks: "",
    enabled: true,
    expectations: [emptyExpectation(strategy)],
  };
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
const text = (value: unknown): string =>
  typeof value === "string" || typeof value === "number" ? String(value) : "";

/** A stored definition as the form edits it (a row written by hand is read as far as it goes). */
export function draftOf(definition: TAgentDefinitionView): TActorDraft {
  const stored = Array.isArray(definition.expectations) ? definition.expectations : [];
  return {
    identifier: definition.identifier,
    maxConcurrentEpisodes: String(definition.maxConcurrentEpisodes),
    stacks: definition.stacks.join(", "),
    enabled: definition.enabled,
    expectations: stored.map((raw: unknown) => {
      const expectation = record(raw);
      const trigger = record(expectation.trigger);
      const budget = record(expectation.budget);
      const triggerKind: TTriggerKind =
        "event" in trigger ? "event" : "schedule" in trigger ? "schedule" : "manual";
      return {
        ...emptyExpectation(),
        id: text(expectation.id),
        strategy: text(expectation.strategy),
        triggerKind,
        rule: text(triggerKind === "event" ? trigger.event : trigger.schedule),
        timezone: text(trigger.timezone) || "UTC",
        recoveryPolicy: expectation.recoveryPolicy === "restart" ? "restart" : "fail",
        maxWallMs: text(budget.maxWallMs),
        original: { trigger, budget },
      };
    }),
  };
}

function triggerOf(draft: TExpectationDraft): Record<string, unknown> {
  const kept = "manual" in draft.original.trigger ? {} : draft.original.trigger;
  switch (draft.triggerKind) {
    case "manual":
      return { manual: true };
    case "event":
      return { ...("event" in kept ? kept : {}), event: draft.rule };
    case "schedule":
      return { schedule: draft.rule, timezone: draft.timezone || "UTC" };
  }
}

const numberOrUndefined = (value: string): number | undefined =>
  value.trim() === "" ? undefined : Number(value);

/** What create (and, without the identifier, update) sends. */
export function inputOf(draft: TActorDraft): TAgentDefinitionInput {
  return {
    identifier: draft.identifier.trim(),
    maxConcurrentEpisodes: Number(draft.maxConcurrentEpisodes),
    stacks: draft.stacks
      .split(",")
      .map((stack) => stack.trim())
      .filter((stack) => stack.length > 0),
    enabled: draft.enabled,
    expectations: draft.expectations.map((expectation) => {
      // The stored budget's other limits (maxTurns, maxTokens) are kept as they were.
      const { maxWallMs: _shown, ...budget } = expectation.original.budget;
      const wall = numberOrUndefined(expectation.maxWallMs);
      return {
        id: expectation.id.trim(),
        strategy: expectation.strategy,
        trigger: triggerOf(expectation),
        recoveryPolicy: expectation.recoveryPolicy,
        budget: { ...budget, ...(wall === undefined ? {} : { maxWallMs: wall }) },
      };
    }),
  };
}
