import type { ScenarioCheck } from "./scenario-check";
import { nemesisEvents, spread } from "./history-queries";
import type { RunFacts } from "./run-facts";

/**
 * Episodes `proc` had created (a fire it answered with an episode id) and not begun running
 * before `at`: what waited in its queue at a fault, as its own history tells it.
 */
function queuedAt(history: RunFacts["history"], proc: string, at: number): Set<string> {
  const queued = new Set<string>();
  for (const r of history) {
    if (r.t >= at) break;
    if (r.proc !== proc) continue;
    if (r.op === "fire" && r.type === "ok" && r.episodeId !== undefined) queued.add(r.episodeId);
    if (r.op === "run") queued.delete(r.episodeId);
  }
  return queued;
}

/** The first run of `episodeId` by any process after `at`. */
function firstRunAfter(history: RunFacts["history"], episodeId: string, at: number) {
  return history.find((r) => r.op === "run" && r.episodeId === episodeId && r.t > at);
}

/**
 * Scenarios 8 and 10's kills: each killed worker's own history says which episodes it had queued
 * (fired, answered, not begun). The common checks already count any of them that did not end as
 * its policy allows as lost, and any left open as stuck; this adds how many there were, how many
 * ran afterwards and how long after the kill, and fails a run whose kills caught no queue at all
 * (it would prove nothing).
 */
export const checkQueueKills: ScenarioCheck = (facts, common) => {
  const violations: string[] = [];
  const kills = nemesisEvents(facts.history, "kill");
  const delaysMs: number[] = [];
  let queued = 0;
  let ranLater = 0;
  let finishedOk = 0;
  for (const kill of kills) {
    for (const episodeId of queuedAt(facts.history, kill.target ?? "", kill.t)) {
      queued += 1;
      const run = firstRunAfter(facts.history, episodeId, kill.t);
      if (run) {
        ranLater += 1;
        delaysMs.push(run.t - kill.t);
      }
      const status = common.episodesById.get(episodeId)?.status;
      if (status === "completed" || status === "failed") finishedOk += 1;
    }
  }
  const seenAtKills = kills.reduce((sum, k) => sum + (k.queued ?? 0), 0);
  if (facts.meta.id === 8 && kills.length > 0 && queued === 0 && seenAtKills === 0) {
    violations.push("no kill caught a worker holding queued episodes: the scenario proved nothing");
  }
  return {
    details: {
      kills: kills.length,
      replacedByNewIdentity: kills.filter((k) => k.replacement !== undefined).length,
      "queued at kills (db)": seenAtKills,
      "queued at kills (history)": queued,
      queuedRunLater: ranLater,
      queuedFinished: finishedOk,
      "kill→queued run p50/max": spread(delaysMs),
    },
    violations,
  };
};

/** Scenario 9: the server restarted with queues held, and no process was killed. */
export const checkQueueRestart: ScenarioCheck = (facts) => {
  const violations: string[] = [];
  const stops = nemesisEvents(facts.history, "pg-stop");
  const queued = stops.reduce((sum, s) => sum + (s.queued ?? 0), 0);
  if (nemesisEvents(facts.history, "pg-start").length === 0) {
    violations.push("PostgreSQL was never restarted");
  }
  if (stops.length > 0 && queued === 0) {
    violations.push("no restart caught a queued episode: the scenario proved nothing");
  }
  if (nemesisEvents(facts.history, "kill").length > 0) violations.push("a process was killed");
  return {
    details: {
      restarts: stops.length,
      queuedAtRestarts: queued,
      longestDownS: (Number(facts.meta.measured.longestDownMs ?? 0) / 1000).toFixed(1),
    },
    violations,
  };
};

/** Scenario 10: which faults the seed drew, on top of the kill figures. */
export const checkRandomMix: ScenarioCheck = (facts, common) => {
  const kills = checkQueueKills(facts, common);
  const seed = nemesisEvents(facts.history, "seed")[0]?.seed;
  const drawn = ["burst", "pause", "terminate", "pg-start"].map(
    (event) =>
      `${event}×${facts.history.filter((r) => r.op === "nemesis" && r.event === event).length}`,
  );
  return {
    details: { seed: seed ?? "-", faults: drawn.join(" "), ...kills.details },
    violations: kills.violations,
  };
};
