import { describe, expect, it } from "vitest";
import { draftOf, emptyDraft, inputOf, type TAgentDefinitionView } from "./actor-draft";

const stored: TAgentDefinitionView = {
  id: "00000000-0000-0000-0000-000000000001",
  identifier: "reporter",
  env: null,
  enabled: false,
  maxConcurrentEpisodes: 3,
  stacks: ["blue", "green"],
  expectations: [
    {
      id: "on_change",
      strategy: "summarise",
      trigger: { event: "resource.updated", cooldownMs: 5_000 },
      recoveryPolicy: "restart",
      budget: { maxTurns: 7, maxWallMs: 60_000 },
    },
    {
      id: "daily",
      strategy: "summarise",
      trigger: { schedule: "0 9 * * *", timezone: "Europe/Paris" },
    },
  ],
  insertedAt: "2026-12-02T00:00:00.000Z",
  updatedAt: "2026-12-02T00:00:00.000Z",
  problem: null,
};

describe("the dynamic actor form's draft", () => {
  it("round-trips a stored definition, keeping what the form does not show", () => {
    expect(inputOf(draftOf(stored))).toEqual({
      identifier: "reporter",
      maxConcurrentEpisodes: 3,
      stacks: ["blue", "green"],
      enabled: false,
      expectations: [
        {
          id: "on_change",
          strategy: "summarise",
          // The event gate and the turn budget survive an edit made through the form.
          trigger: { event: "resource.updated", cooldownMs: 5_000 },
          recoveryPolicy: "restart",
          budget: { maxTurns: 7, maxWallMs: 60_000 },
        },
        {
          id: "daily",
          strategy: "summarise",
          trigger: { schedule: "0 9 * * *", timezone: "Europe/Paris" },
          recoveryPolicy: "fail",
          budget: {},
        },
      ],
    });
  });

  it("sends what was typed for a new actor, gates dropped when the trigger kind changes", () => {
    const draft = emptyDraft("steps");
    const [first] = draft.expectations;
    if (first === undefined) throw new Error("an empty draft has one expectation");
    const input = inputOf({
      ...draft,
      identifier: " nightly ",
      stacks: " a, ,b ",
      expectations: [{ ...first, id: "run", maxWallMs: "1000" }],
    });
    expect(input).toMatchObject({
      identifier: "nightly",
      maxConcurrentEpisodes: 3,
      stacks: ["a", "b"],
      expectations: [
        { id: "run", strategy: "steps", trigger: { manual: true }, budget: { maxWallMs: 1000 } },
      ],
    });
    const edited = draftOf(stored);
    const gated = edited.expectations[0];
    if (gated === undefined) throw new Error("stored has two expectations");
    const asManual = inputOf({ ...edited, expectations: [{ ...gated, triggerKind: "manual" }] });
    expect(asManual.expectations[0]?.trigger).toEqual({ manual: true });
  });
});
