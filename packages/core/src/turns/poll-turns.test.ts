import { afterEach, describe, expect, it, vi } from "vitest";
import type { PollOutcome } from "../actors/index";
import { spyQueryable } from "../db/testing/index";
import { silentLogger } from "../telemetry/index";
import { MemoryExpectationTurns } from "./expectation-turn-store";
import { PollTurns } from "./expectation-turns";

afterEach(() => {
  vi.useRealTimers();
});

function timer(outcomes: PollOutcome[], active: { value: boolean }) {
  const fired: Record<string, unknown>[] = [];
  let polls = 0;
  const poll = new PollTurns({
    key: { actorId: "a", expectationId: "e", env: null },
    store: new MemoryExpectationTurns(),
    intervalMs: 1_000,
    db: spyQueryable(),
    logger: silentLogger,
    isActive: () => active.value,
    poll: () => outcomes[polls++] ?? false,
    onFire: (context) => {
      fired.push(context);
      return Promise.resolve();
    },
  });
  return { poll, fired, polls: () => polls };
}

describe("PollTurns", () => {
  it("fires true with its interval window, a context as given, and skips false or null", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-29T10:00:00.400Z") });
    const { poll, fired } = timer([true, false, { context: { resourceId: "r-1" } }, null], {
      value: true,
    });
    poll.start();
    await vi.advanceTimersByTimeAsync(4_000);
    poll.stop();
    expect(fired).toEqual([{ window: "2026-11-29T10:00:01.000Z" }, { resourceId: "r-1" }]);
  });

  it("does not poll while its actor is disabled here", async () => {
    vi.useFakeTimers();
    const active = { value: false };
    const { poll, polls } = timer([true, true, true], active);
    poll.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(polls()).toBe(0);
    active.value = true;
    await vi.advanceTimersByTimeAsync(1_000);
    poll.stop();
    expect(polls()).toBe(1);
  });
});
