import { ACTORS } from "../cluster/fault-actors";
import type { ScenarioCheck } from "./scenario-check";
import { inFlightAt, nemesisEvents, nextRunElsewhere, spread } from "./history-queries";

/**
 * Scenario 2: for every kill, the episodes the killed process had mid-run. Restart-policy ones
 * must be re-run elsewhere and complete (the time from kill to re-run is reported); fail-policy
 * ones must end `orphaned` (or completed, when the kill came just after their last write) and
 * never run a second time.
 */
export const checkKills: ScenarioCheck = (facts, common) => {
  const violations: string[] = [];
  const rerunMs: number[] = [];
  const orphanMs: number[] = [];
  let caught = 0;
  let restarted = 0;
  let orphaned = 0;
  for (const kill of nemesisEvents(facts.history, "kill")) {
    const proc = kill.target ?? "";
    for (const episodeId of inFlightAt(facts.history, proc, kill.t)) {
      const episode = common.episodesById.get(episodeId);
      if (episode === undefined) continue;
      caught += 1;
      if (episode.actor_id === ACTORS.fail) {
        if (episode.error_class === "orphaned") {
          orphaned += 1;
          const at = episode.recovery_history[0]?.at;
          if (at !== undefined) orphanMs.push(Date.parse(at) - kill.t);
        } else if (episode.status !== "completed") {
          violations.push(
            `fail-policy episode ${episodeId} killed mid-run ended ${episode.status}`,
          );
        }
        continue;
      }
      const rerun = nextRunElsewhere(facts.history, episodeId, proc, kill.t);
      if (rerun) {
        restarted += 1;
        rerunMs.push(rerun.t - kill.t);
      }
      if (episode.status !== "completed") {
        violations.push(
          `restart-policy episode ${episodeId} killed mid-run ended ${episode.status}`,
        );
      }
    }
  }
  const runsOfFailPolicy = new Map<string, number>();
  for (const r of facts.history) {
    if (r.op !== "run" || common.episodesById.get(r.episodeId)?.actor_id !== ACTORS.fail) continue;
    runsOfFailPolicy.set(r.episodeId, (runsOfFailPolicy.get(r.episodeId) ?? 0) + 1);
  }
  const twice = [...runsOfFailPolicy].filter(([, runs]) => runs > 1);
  if (twice.length > 0) {
    violations.push(
      `${twice.length} fail-policy episode(s) ran more than once, e.g. ${twice[0]?.[0]}`,
    );
  }
  return {
    details: {
      kills: nemesisEvents(facts.history, "kill").length,
      caughtMidRun: caught,
      rerunAfterKill: restarted,
      orphanedAfterKill: orphaned,
      "kill→re-run p50/max": spread(rerunMs),
      "kill→orphaned p50/max": spread(orphanMs),
    },
    violations,
  };
};
