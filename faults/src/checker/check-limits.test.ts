import { describe, expect, it } from "vitest";
import type { THistoryRecord } from "../history/records";
import { maxConcurrentRuns } from "./check-limits";

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
