import { describe, expect, it } from "vitest";
import type { THistoryRecord } from "../history/records";
import { databaseStarts, maxConcurrentRuns } from "./check-limits";

const run = (t: number, proc: string, episodeId: string, attempt = 1): THistoryRecord => ({
  t,
  proc,
  op: "run",
  episodeId,
  attempt,
  recovered: false,
});
const step = (t: number, proc: string, episodeId: string, attempt = 1): THistoryRecord => ({
  t,
  proc,
  op: "step",
  type: "ok",
  episodeId,
  attempt,
  stepNo: 1,
});

describe("maxConcurrentRuns", () => {
  it("counts runs that overlap, an end before a start at the same instant", () => {
    const history = [
      run(0, "w1", "a"),
      run(1, "w2", "b"),
      step(5, "w1", "a"),
      run(5, "w1", "c"),
      step(6, "w2", "b"),
      step(9, "w1", "c"),
      run(2, "w3", "other"),
      step(8, "w3", "other"),
    ];
    expect(maxConcurrentRuns(history, (id) => id !== "other")).toEqual({ peak: 2, runs: 3 });
  });

  it("keeps a retried attempt apart from the attempt before it", () => {
    const history = [run(0, "w1", "a", 1), step(2, "w1", "a", 1), run(3, "w2", "a", 2)];
    expect(maxConcurrentRuns(history, () => true)).toEqual({ peak: 1, runs: 2 });
  });
});

describe("databaseStarts", () => {
  const start = (running: number, keys: string[] | null = ["global:/limited"]) => ({
    episode_id: "e",
    attempt: 1,
    running,
    limit_keys: keys,
    at: 0,
  });

  it("reads the most running at a start, and the starts that hold no key", () => {
    expect(databaseStarts([start(1), start(3), start(2, null), start(2, [])])).toEqual({
      peak: 3,
      keyless: 2,
      leastLagMs: null,
    });
    expect(databaseStarts([])).toEqual({ peak: 0, keyless: 0, leastLagMs: null });
  });

  it("reads how soon a run record follows its start in the database", () => {
    const starts = [
      { ...start(1), episode_id: "a", at: 100 },
      { ...start(2), episode_id: "b", at: 200 },
    ];
    const history = [run(103, "w1", "a"), run(198.5, "w2", "b"), run(50, "w3", "other")];
    expect(databaseStarts(starts, history).leastLagMs).toBe(-1.5);
  });
});
