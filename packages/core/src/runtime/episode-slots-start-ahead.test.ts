import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import type { Episode } from "../episodes/index";
import type { QueuedEpisodeResult } from "./actor-queue";
import { EpisodeSlots } from "./episode-slots";
import type { EpisodeRunResult, RunEpisodeOptions } from "./local-runner";

/**
 * A runner whose start commits and strategy returns happen when the test says, so the slots'
 * scheduling can be watched step by step: which episodes were asked to start, whose strategy
 * runs, and what a started-ahead episode is told.
 */
function scriptedRunner() {
  const asked: string[] = [];
  const strategies: string[] = [];
  const told = new Map<string, string>();
  const commits = new Map<string, () => void>();
  const returns = new Map<string, () => void>();
  const live = { now: 0, max: 0 };
  const runner = {
    async run(episode: Episode, options: RunEpisodeOptions = {}): Promise<EpisodeRunResult> {
      asked.push(episode.id);
      await new Promise<void>((resolve) => commits.set(episode.id, resolve));
      const answer = (await options.beforeStrategy?.()) ?? "run";
      told.set(episode.id, answer);
      // What LocalRunner answers once it has put the episode back to pending (unstartEpisodes).
      if (answer !== "run") return { kind: "unstarted" };
      strategies.push(episode.id);
      live.now += 1;
      live.max = Math.max(live.max, live.now);
      await new Promise<void>((resolve) => returns.set(episode.id, resolve));
      live.now -= 1;
      options.onStrategyReturned?.();
      return { kind: "completed", episode };
    },
  };
  const commit = async (...ids: string[]) => {
    for (const id of ids) {
      await vi.waitFor(() => expect(commits.has(id)).toBe(true));
      commits.get(id)?.();
    }
  };
  const finish = async (...ids: string[]) => {
    for (const id of ids) {
      await vi.waitFor(() => expect(returns.has(id)).toBe(true));
      returns.get(id)?.();
    }
  };
  return { runner, asked, strategies, told, live, commit, finish };
}

function slotsWith(runner: ReturnType<typeof scriptedRunner>["runner"], limit: number) {
  let draining = false;
  const slots = new EpisodeSlots({
    runner,
    maxConcurrent: () => limit,
    isDraining: () => draining,
  });
  const results = new Map<string, QueuedEpisodeResult>();
  const push = (...ids: string[]) => {
    for (const id of ids) {
      slots.push("a", {
        episode: { id, actorId: "a" } as Episode,
        owned: true,
        recovered: false,
        resume: undefined,
        triggerRequestId: undefined,
        priority: 0,
        settle: (result) => results.set(id, result),
      });
    }
  };
  const drain = () => {
    draining = true;
    return slots.takeAllQueued();
  };
  return { slots, push, drain, results };
}

describe("EpisodeSlots: starting ahead of a free slot", () => {
  it("starts nothing ahead before it has measured a start and a run", async () => {
    const script = scriptedRunner();
    const { slots, push } = slotsWith(script.runner, 2);
    push("e1", "e2", "e3", "e4");
    await sleep(10);
    expect(script.asked).toEqual(["e1", "e2"]);
    expect(slots.startedAheadCount("a")).toBe(0);
    expect(slots.queuedCount("a")).toBe(2);
  });

  it("keeps short strategies' next starts committed ahead, never more strategies than the limit", async () => {
    const script = scriptedRunner();
    const { slots, push, drain, results } = slotsWith(script.runner, 2);

    // Two episodes measure the start (held 150 ms) and the run (returned when the test gets to
    // it: well under the start, even on a loaded machine).
    push("w1", "w2");
    await sleep(150);
    await script.commit("w1", "w2");
    await script.finish("w1", "w2");
    await vi.waitFor(() => expect(results.size).toBe(2));

    // Start ≫ run: the two slots' next episodes are started ahead as well.
    push("e1", "e2", "e3", "e4", "e5", "e6");
    expect(script.asked.slice(2)).toEqual(["e1", "e2", "e3", "e4"]);
    expect(slots.runningCount("a")).toBe(2);
    expect(slots.startedAheadCount("a")).toBe(2);
    // Started ahead, they wait in the queue's room, not in a slot.
    expect(slots.queuedCount("a")).toBe(4);

    await script.commit("e1", "e2", "e3", "e4");
    await vi.waitFor(() => expect(script.strategies).toEqual(["w1", "w2", "e1", "e2"]));
    await sleep(10);
    // e3 and e4 have started (claim taken, row running) and their strategies wait for a slot.
    expect(script.strategies).toEqual(["w1", "w2", "e1", "e2"]);

    // e1 returns: its slot goes to e3, whose start is already committed, and e5 starts ahead.
    await script.finish("e1");
    await vi.waitFor(() => expect(script.strategies).toEqual(["w1", "w2", "e1", "e2", "e3"]));
    expect(script.asked.slice(2)).toEqual(["e1", "e2", "e3", "e4", "e5"]);
    expect(script.live.max).toBe(2);

    // The node stops: the queue (e6) is handed back; e4 (committed, waiting) and e5 (its start
    // still in flight) are started, so they take the slots that free and run.
    expect(drain().map((entry) => entry.episode.id)).toEqual(["e6"]);
    await script.commit("e5");
    await sleep(10);
    expect(script.strategies).toEqual(["w1", "w2", "e1", "e2", "e3"]);
    await script.finish("e2");
    await vi.waitFor(() => expect(script.strategies).toContain("e4"));
    await script.finish("e3");
    await vi.waitFor(() => expect(script.strategies).toContain("e5"));
    await script.finish("e4", "e5");
    await slots.whenIdle();
    expect(script.strategies).toEqual(["w1", "w2", "e1", "e2", "e3", "e4", "e5"]);
    expect(results.get("e5")?.kind).toBe("completed");
    expect(script.asked).not.toContain("e6");
    expect(script.live.max).toBe(2);
    expect(slots.runningCount("a")).toBe(0);
    expect(slots.queuedCount("a")).toBe(0);
  });

  it("gives an actor's started-ahead episodes no slot once the actor may no longer run here", async () => {
    const script = scriptedRunner();
    const { slots, push, results } = slotsWith(script.runner, 1);
    push("w1");
    await sleep(150);
    await script.commit("w1");
    await script.finish("w1");
    await vi.waitFor(() => expect(results.size).toBe(1));
    push("e1", "e2", "e3");
    // The starts are asked for on the runner's next turns, later on a loaded machine.
    await vi.waitFor(() => expect(script.asked.slice(1)).toEqual(["e1", "e2"]));
    await script.commit("e1", "e2");
    await vi.waitFor(() => expect(script.strategies).toEqual(["w1", "e1"]));

    // Switched off here (the reconcile's takeQueued): e3 is handed back, e2 gets no slot.
    expect(slots.takeQueued("a").map((entry) => entry.episode.id)).toEqual(["e3"]);
    await vi.waitFor(() => expect(script.told.get("e2")).toBe("stopping"));
    await vi.waitFor(() => expect(results.get("e2")?.kind).toBe("unstarted"));
    await script.finish("e1");
    await vi.waitFor(() => expect(results.get("e1")?.kind).toBe("completed"));
    expect(script.strategies).toEqual(["w1", "e1"]);
    expect(slots.queuedCount("a")).toBe(0);
    expect(slots.runningCount("a")).toBe(0);
  });

  it("starts nothing ahead for strategies that outlast a start", async () => {
    const script = scriptedRunner();
    const { slots, push, results } = slotsWith(script.runner, 2);
    push("w1", "w2");
    await script.commit("w1", "w2");
    await sleep(40);
    await script.finish("w1", "w2");
    await vi.waitFor(() => expect(results.size).toBe(2));
    push("e1", "e2", "e3", "e4");
    expect(script.asked.slice(2)).toEqual(["e1", "e2"]);
    expect(slots.startedAheadCount("a")).toBe(0);
  });
});
