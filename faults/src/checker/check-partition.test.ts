import { describe, expect, it } from "vitest";
import type { THistoryRecord } from "../history/records";
import { checkPartition } from "./check-partition";
import type { CommonCheck } from "./check-common";
import type { EpisodeRow, RunFacts, StepRow } from "./run-facts";

// Scenario 5's story from a real run: w2 is cut off mid-step (t=100), its lease lapses, w3 takes
// the episode over (t=200), and after w3 is cut off in turn w2 recovers it at t=400 and finishes.
const EPISODE = "e1";
const history = [
  { t: 10, proc: "w2#1", op: "run", episodeId: EPISODE, attempt: 1, recovered: false },
  { t: 11, proc: "w2#1", op: "step", type: "invoke", episodeId: EPISODE, attempt: 1, stepNo: 1 },
  { t: 100, proc: "nemesis", op: "nemesis", event: "partition", target: "w2#1" },
  { t: 150, proc: "w2#1", op: "abort", episodeId: EPISODE, reason: "lease_lapsed" },
  { t: 200, proc: "w3#2", op: "run", episodeId: EPISODE, attempt: 2, recovered: true },
  { t: 300, proc: "nemesis", op: "nemesis", event: "heal", target: "w2#1" },
  { t: 400, proc: "w2#1", op: "run", episodeId: EPISODE, attempt: 3, recovered: true },
] as unknown as THistoryRecord[];

function step(id: string, insertedAt: number): StepRow {
  return {
    id,
    episode_id: EPISODE,
    attempt: 3,
    step_no: Number(id),
    outcome: "continue",
    node: "w2",
    inserted_at: insertedAt,
  };
}

function check(journal: StepRow[]) {
  const episode = { id: EPISODE, recovery_history: [] } as unknown as EpisodeRow;
  const common = {
    episodesById: new Map([[EPISODE, episode]]),
    journal: new Map([[EPISODE, journal]]),
  } as unknown as CommonCheck;
  return checkPartition({ history } as unknown as RunFacts, common);
}

describe("checkPartition", () => {
  it("accepts the cut-off node's writes of its own later run of the episode", () => {
    expect(check([step("1", 450), step("2", 500)]).violations).toEqual([]);
  });

  it("flags a write of the cut-off node that lands after the heal, before any run of its own", () => {
    expect(check([step("1", 350), step("2", 450)]).violations).toEqual([
      "episode e1: 1 write(s) of the cut-off w2 landed after the heal",
    ]);
  });
});
