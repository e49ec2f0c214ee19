import type { ScenarioCheck } from "./scenario-check";
import type { RunFacts } from "./run-facts";
import { inFlightAt, nemesisEvents, nextRunElsewhere, spread } from "./history-queries";

/**
 * Whether `proc` was inside a strategy step of the episode at `at`: its last step record before
 * then is an invoke. A node whose last step had finished was only waiting on its final, fenced
 * write; nothing of the strategy ran any more.
 */
function inStepAt(
  history: RunFacts["history"],
  proc: string,
  episodeId: string,
  at: number,
): boolean {
  let inside = false;
  for (const r of history) {
    if (r.t > at) break;
    if (r.op === "step" && r.proc === proc && r.episodeId === episodeId)
      inside = r.type === "invoke";
  }
  return inside;
}

/**
 * Scenario 5: the partitioned worker had episodes mid-run and kept running. For each that another
 * node took over while the cut-off worker was inside one of its steps, that worker must have
 * aborted it first (one executor at a time: its lease lapsed by its own monotonic clock before the
 * database's), and nothing it sent once the partition healed may be in the journal.
 */
export const checkPartition: ScenarioCheck = (facts, common) => {
  const violations: string[] = [];
  const heals = nemesisEvents(facts.history, "heal");
  const marginsMs: number[] = [];
  let held = 0;
  let aborted = 0;
  let takenOver = 0;
  let fencedAfterHeal = 0;
  let zombieSteps = 0;
  for (const cut of nemesisEvents(facts.history, "partition")) {
    const proc = cut.target ?? "";
    const node = proc.split("#")[0] ?? proc;
    const healedAt =
      heals.find((h) => h.target === proc && h.t > cut.t)?.t ?? Number.POSITIVE_INFINITY;
    fencedAfterHeal += facts.history.filter(
      (r) => r.proc === proc && r.op === "episode" && r.event === "fenced" && r.t >= healedAt,
    ).length;
    for (const episodeId of inFlightAt(facts.history, proc, cut.t)) {
      const episode = common.episodesById.get(episodeId);
      if (!episode) continue;
      held += 1;
      const abort = facts.history.find(
        (r) => r.op === "abort" && r.proc === proc && r.episodeId === episodeId && r.t > cut.t,
      );
      if (abort) {
        aborted += 1;
        zombieSteps += facts.history.filter(
          (r) =>
            r.op === "step" &&
            r.type === "ok" &&
            r.proc === proc &&
            r.episodeId === episodeId &&
            r.t > abort.t,
        ).length;
      }
      const rerun = nextRunElsewhere(facts.history, episodeId, proc, cut.t)?.t;
      const orphanedAt = episode.recovery_history
        .map((h) => Date.parse(h.at))
        .find((at) => at > cut.t);
      const takeoverAt = Math.min(
        rerun ?? Number.POSITIVE_INFINITY,
        orphanedAt ?? Number.POSITIVE_INFINITY,
      );
      if (!Number.isFinite(takeoverAt)) continue;
      takenOver += 1;
      const abortedFirst = abort !== undefined && abort.t <= takeoverAt;
      if (abortedFirst) marginsMs.push(takeoverAt - abort.t);
      else if (inStepAt(facts.history, proc, episodeId, takeoverAt)) {
        violations.push(
          `episode ${episodeId}: taken over while the cut-off ${node} still ran a step of it`,
        );
      }
      // The same node may legitimately run the episode again later (it recovered it after another
      // node's lease lapsed in turn): writes of that new run are not zombie writes.
      const ownRerunAt =
        facts.history.find(
          (r) => r.op === "run" && r.proc === proc && r.episodeId === episodeId && r.t > cut.t,
        )?.t ?? Number.POSITIVE_INFINITY;
      const late = (common.journal.get(episodeId) ?? []).filter(
        (s) => s.node === node && s.inserted_at >= healedAt && s.inserted_at < ownRerunAt,
      );
      if (late.length > 0) {
        violations.push(
          `episode ${episodeId}: ${late.length} write(s) of the cut-off ${node} landed after the heal`,
        );
      }
    }
  }
  return {
    details: {
      partitions: nemesisEvents(facts.history, "partition").length,
      heldAtPartition: held,
      abortedByCutOffNode: aborted,
      takenOver,
      "abort→takeover p50/max": spread(marginsMs),
      zombieStepsComputed: zombieSteps,
      lateWritesFenced: fencedAfterHeal,
    },
    violations,
  };
};
