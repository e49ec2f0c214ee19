import type { ScenarioCheck } from "./scenario-check";
import { inFlightAt, nemesisEvents } from "./history-queries";

function identityOf(proc: string): string {
  return proc.split("#")[0] ?? proc;
}

function resultNode(result: unknown): string | undefined {
  if (typeof result !== "object" || result === null || !("node" in result)) return undefined;
  return typeof result.node === "string" ? result.node : undefined;
}

/**
 * Scenario 3: the episodes the paused worker had mid-run and that another node took over while it
 * was stopped. Every journal write the paused worker made after SIGCONT for them must have been
 * rejected (none of its rows after the resume), and the new owner's outcome must stand: the
 * journal's `done` and the episode's result come from the new owner.
 */
export const checkPause: ScenarioCheck = (facts, common) => {
  const violations: string[] = [];
  const resumes = nemesisEvents(facts.history, "resume");
  let heldAtPause = 0;
  let takenOver = 0;
  let fencedAfterResume = 0;
  let lateStepsComputed = 0;
  for (const pause of nemesisEvents(facts.history, "pause")) {
    const proc = pause.target ?? "";
    const node = identityOf(proc);
    const resume = resumes.find((r) => r.target === proc && r.t > pause.t);
    const resumedAt = resume?.t ?? Number.POSITIVE_INFINITY;
    const held = inFlightAt(facts.history, proc, pause.t);
    heldAtPause += held.size;
    fencedAfterResume += facts.history.filter(
      (r) => r.proc === proc && r.op === "episode" && r.event === "fenced" && r.t >= resumedAt,
    ).length;
    lateStepsComputed += facts.history.filter(
      (r) =>
        r.proc === proc &&
        r.op === "step" &&
        r.type === "ok" &&
        r.t >= resumedAt &&
        held.has(r.episodeId),
    ).length;
    for (const episodeId of held) {
      const episode = common.episodesById.get(episodeId);
      if (!episode) continue;
      const recoveredWhilePaused = episode.recovery_history.some((h) => {
        const at = Date.parse(h.at);
        return at > pause.t && at < resumedAt;
      });
      if (!recoveredWhilePaused) continue;
      takenOver += 1;
      const late = (common.journal.get(episodeId) ?? []).filter(
        (s) => s.node === node && s.inserted_at >= resumedAt,
      );
      if (late.length > 0) {
        violations.push(
          `episode ${episodeId}: ${late.length} journal write(s) of the paused ${node} landed after SIGCONT`,
        );
      }
      if (episode.status === "completed" && resultNode(episode.result) === node) {
        violations.push(
          `episode ${episodeId}: the result is the paused ${node}'s, not the new owner's`,
        );
      }
    }
  }
  return {
    details: {
      pauses: nemesisEvents(facts.history, "pause").length,
      heldAtPause,
      takenOverWhilePaused: takenOver,
      lateStepsComputed,
      lateWritesFenced: fencedAfterResume,
      longestPauseS: ((Number(facts.meta.measured.longestPauseMs) || 0) / 1000).toFixed(1),
    },
    violations,
  };
};
