import { describe, expect, it } from "vitest";
import { CycliumError } from "../errors/index";
import { defineActor } from "./define-actor";
import { done, type Strategy } from "./strategy";

const noop: Strategy<unknown, null> = { init: () => null, step: () => done() };

function errorOf(fn: () => unknown): CycliumError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CycliumError) return error;
    throw error;
  }
  throw new Error("expected a CycliumError");
}

describe("defineActor", () => {
  it("fills in the documented defaults", () => {
    const actor = defineActor({
      identifier: "resource_monitor",
      expectations: [
        { id: "check", strategy: noop, trigger: { event: "resource.updated" } },
        { id: "daily", strategy: "named", trigger: { schedule: "0 9 * * *" } },
      ],
    });
    expect(actor.maxConcurrentEpisodes).toBe(3);
    expect(actor.episodeOverflow).toBe("queue");
    expect(actor.stacks).toEqual([]);
    expect(actor.source).toBe("compiled");
    expect(actor.expectations[0]?.recoveryPolicy).toBe("fail");
    expect(actor.expectations[0]?.budget).toEqual({
      maxTurns: 12,
      maxTokens: 25_000,
      maxWallMs: 120_000,
    });
    expect(actor.expectations[1]?.trigger).toEqual({ schedule: "0 9 * * *", timezone: "UTC" });
    expect(Object.isFrozen(actor)).toBe(true);
  });

  it("rejects an unknown trigger kind, naming the field", () => {
    const error = errorOf(() =>
      defineActor({
        identifier: "a",
        // @ts-expect-error: a kind that does not exist
        expectations: [{ id: "x", strategy: noop, trigger: { evnt: "resource.updated" } }],
      }),
    );
    expect(error.code).toBe("invalid_config");
    expect(error.message).toContain('Invalid actor "a"');
    expect(error.message).toContain("expectations.0.trigger: unknown trigger kind (got evnt)");
  });

  it("takes cluster-wide limits and rejects a bad one, naming the field", () => {
    const actor = defineActor({
      identifier: "llm",
      concurrency: { global: 5 },
      rateLimit: { limit: 60, periodMs: 60_000 },
      expectations: [
        {
          id: "call",
          strategy: noop,
          trigger: { manual: true },
          concurrency: { perKey: { key: (input) => String(input), limit: 1 } },
        },
      ],
    });
    expect(actor.concurrency).toEqual({ global: 5 });
    expect(actor.expectations[0]?.concurrency?.perKey?.limit).toBe(1);
    const zero = errorOf(() =>
      defineActor({
        identifier: "a",
        concurrency: { global: 0 },
        expectations: [{ id: "x", strategy: noop, trigger: { manual: true } }],
      }),
    );
    expect(zero.message).toContain("concurrency.global");
    const key = errorOf(() =>
      defineActor({
        identifier: "a",
        expectations: [
          {
            id: "x",
            strategy: noop,
            trigger: { manual: true },
            // @ts-expect-error: a key must be a function of the input
            rateLimit: { limit: 1, periodMs: 1000, key: "customer" },
          },
        ],
      }),
    );
    expect(key.message).toContain("expectations.0.rateLimit.key");
  });

  it("rejects a bad cron expression and a bad IANA time zone", () => {
    expect(
      errorOf(() =>
        defineActor({
          identifier: "a",
          expectations: [{ id: "x", strategy: noop, trigger: { schedule: "61 * * * *" } }],
        }),
      ).message,
    ).toMatch(/expectations\.0\.trigger\.schedule: bad cron expression "61 \* \* \* \*"/);
    expect(
      errorOf(() =>
        defineActor({
          identifier: "a",
          expectations: [
            {
              id: "x",
              strategy: noop,
              trigger: { schedule: "0 9 * * *", timezone: "Mars/Olympus" },
            },
          ],
        }),
      ).message,
    ).toMatch(/expectations\.0\.trigger\.timezone: bad timezone "Mars\/Olympus"/);
    // Six fields would be sub-minute schedules, which the minute-wide dedupe window cannot tell apart.
    expect(
      errorOf(() =>
        defineActor({
          identifier: "a",
          expectations: [{ id: "x", strategy: noop, trigger: { schedule: "*/5 * * * * *" } }],
        }),
      ).message,
    ).toContain("bad cron expression");
  });

  it("rejects duplicate expectation ids", () => {
    const error = errorOf(() =>
      defineActor({
        identifier: "a",
        expectations: [
          { id: "x", strategy: noop, trigger: { manual: true } },
          { id: "x", strategy: noop, trigger: { poll: () => true, intervalMs: 1_000 } },
        ],
      }),
    );
    expect(error.message).toContain('expectations.1.id: duplicate expectation id "x"');
  });

  it("reports every bad field at once", () => {
    const error = errorOf(() =>
      defineActor({
        identifier: "a",
        maxConcurrentEpisodes: 0,
        expectations: [{ id: "x", strategy: noop, trigger: { poll: () => true, intervalMs: 10 } }],
      }),
    );
    expect(error.message).toContain("maxConcurrentEpisodes");
    expect(error.message).toContain("expectations.0.trigger.intervalMs");
  });

  it("needs maxQueuedEpisodes for a bounded overflow policy, and a strategy", () => {
    expect(
      errorOf(() =>
        defineActor({
          identifier: "a",
          episodeOverflow: "drop",
          expectations: [{ id: "x", strategy: noop, trigger: { manual: true } }],
        }),
      ).message,
    ).toContain('maxQueuedEpisodes: episodeOverflow "drop" needs maxQueuedEpisodes');
    expect(
      errorOf(() =>
        defineActor({
          identifier: "a",
          // @ts-expect-error: not a strategy
          expectations: [{ id: "x", strategy: { init: 1 }, trigger: { manual: true } }],
        }),
      ).message,
    ).toContain("expectations.0.strategy");
  });
});
