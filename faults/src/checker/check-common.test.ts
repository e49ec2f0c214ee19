import { describe, expect, it } from "vitest";
import { ACTORS } from "../cluster/fault-actors";
import type { THistoryRecord } from "../history/records";
import { checkCommon } from "./check-common";
import type { EpisodeRow, RunFacts, StepRow } from "./run-facts";

function episode(
  id: string,
  actor: string,
  key: string,
  over: Partial<EpisodeRow> = {},
): EpisodeRow {
  return {
    id,
    actor_id: actor,
    expectation_id: "work",
    status: "completed",
    phase: null,
    trigger_type: "manual",
    dedupe_key: `manual:${actor}:work:${key}`,
    input: {},
    result: null,
    error_class: null,
    attempt: 1,
    executed_by: "w1",
    recovery_history: [],
    inserted_at: 0,
    started_at: 0,
    finished_at: 0,
    ...over,
  };
}

function step(id: number, episodeId: string, attempt: number, outcome = "continue"): StepRow {
  return {
    id: String(id),
    episode_id: episodeId,
    attempt,
    step_no: id,
    outcome,
    node: "w1",
    inserted_at: id,
  };
}

function fire(
  key: string,
  actor: string,
  type: "invoke" | "ok" | "fail" | "info",
  t = 0,
): THistoryRecord {
  return { t, proc: "writer#1", op: "fire", key, actor, try: 1, type };
}

function facts(over: Partial<RunFacts>): RunFacts {
  return {
    meta: {
      id: 1,
      name: "test",
      quick: true,
      leaseSeconds: 3,
      staleAfterMs: 4_000,
      recoveryIntervalMs: 1_000,
      startedAt: 0,
      finishedAt: 1,
      drained: true,
      drainMs: 0,
      measured: {},
    },
    episodes: [],
    steps: [],
    claims: [],
    requests: [],
    open: [],
    limitStarts: [],
    history: [],
    ...over,
  };
}

describe("checkCommon", () => {
  it("counts an acknowledged fire without a finished episode as lost", () => {
    const result = checkCommon(
      facts({
        episodes: [
          episode("e1", ACTORS.restart, "k1"),
          episode("e2", ACTORS.restart, "k2", { status: "running" }),
        ],
        history: [
          fire("k1", ACTORS.restart, "ok"),
          fire("k2", ACTORS.restart, "ok"),
          fire("k3", ACTORS.restart, "ok"),
        ],
      }),
    );
    expect(result.counts).toMatchObject({ attempted: 3, acknowledged: 3, lost: 2, duplicated: 0 });
  });

  it("accepts an orphaned end for the fail policy only", () => {
    const orphaned = { status: "failed", error_class: "orphaned" };
    const result = checkCommon(
      facts({
        episodes: [
          episode("e1", ACTORS.fail, "k1", orphaned),
          episode("e2", ACTORS.restart, "k2", orphaned),
        ],
        history: [fire("k1", ACTORS.fail, "ok"), fire("k2", ACTORS.restart, "ok")],
      }),
    );
    expect(result.counts.lost).toBe(1);
  });

  it("counts a retried fire whose first try was unknown as acknowledged and unknown", () => {
    const result = checkCommon(
      facts({
        episodes: [episode("e1", ACTORS.restart, "k1")],
        history: [fire("k1", ACTORS.restart, "info", 1), fire("k1", ACTORS.restart, "ok", 2)],
      }),
    );
    expect(result.counts).toMatchObject({ attempted: 1, acknowledged: 1, unknown: 1, lost: 0 });
  });

  it("counts two done steps of one episode as a duplicated result", () => {
    const result = checkCommon(
      facts({
        episodes: [episode("e1", ACTORS.restart, "k1")],
        steps: [step(1, "e1", 1, "done"), step(2, "e1", 2, "done")],
        history: [fire("k1", ACTORS.restart, "ok")],
      }),
    );
    expect(result.counts.duplicated).toBe(1);
  });

  it("flags a step of an older claim attempt written after a newer attempt's (a zombie write)", () => {
    const result = checkCommon(
      facts({
        episodes: [episode("e1", ACTORS.restart, "k1")],
        // Ids order the writes; "10" after "9" numerically, not as text.
        steps: [step(9, "e1", 1), step(10, "e1", 3), step(11, "e1", 1), step(12, "e1", 3, "done")],
      }),
    );
    expect(result.violations.some((v) => v.includes("claim attempt 1"))).toBe(true);
  });

  it("flags an episode still open after the drain, unless a cron window created it while the settled cluster stopped", () => {
    const meta = { ...facts({}).meta, settledAt: 1_000 };
    const before = episode("e1", ACTORS.cron, "w1", { status: "running", inserted_at: 999 });
    const during = episode("e2", ACTORS.cron, "w2", { status: "running", inserted_at: 1_001 });
    const stuck = checkCommon(facts({ meta, episodes: [before, during] }));
    expect(stuck.violations).toEqual([expect.stringContaining("1 episode(s) unfinished")]);
    expect(stuck.details.openFromTheStop).toBe(1);
    const fromTheStop = checkCommon(facts({ meta, episodes: [during] }));
    expect(fromTheStop.violations).toEqual([]);
    // A run recorded before settledAt existed: every open episode counts.
    const { settledAt: _, ...older } = meta;
    expect(checkCommon(facts({ meta: older, episodes: [during] })).violations).toHaveLength(1);
  });
});
