import type { ScenarioCheck } from "./scenario-check";
import { nemesisEvents } from "./history-queries";

/**
 * Scenario 12 (issue 32): every episode that parked in a durable wait parked once (one `wait`
 * journal row) and, once completed, ran a step after its wait: a kill or a database restart
 * while it waited neither lost it nor woke it twice. The signals sent twice with one key were
 * delivered once each.
 */
export const checkWaits: ScenarioCheck = (facts) => {
  const violations: string[] = [];
  const waitSteps = new Map<string, number[]>();
  const lastStep = new Map<string, number>();
  for (const step of facts.steps) {
    if (step.outcome === "wait") {
      waitSteps.set(step.episode_id, [...(waitSteps.get(step.episode_id) ?? []), step.step_no]);
    }
    lastStep.set(step.episode_id, Math.max(lastStep.get(step.episode_id) ?? 0, step.step_no));
  }
  const waitedTwice = [...waitSteps].filter(([, steps]) => steps.length > 1);
  if (waitedTwice.length > 0) {
    violations.push(`${waitedTwice.length} episode(s) waited twice (e.g. ${waitedTwice[0]?.[0]})`);
  }
  let resumed = 0;
  const notResumed: string[] = [];
  for (const episode of facts.episodes) {
    const waits = waitSteps.get(episode.id);
    if (waits === undefined || episode.status !== "completed") continue;
    if ((lastStep.get(episode.id) ?? 0) > (waits[0] ?? 0)) resumed += 1;
    else notResumed.push(episode.id);
  }
  if (notResumed.length > 0) {
    violations.push(`${notResumed.length} completed without a step after its wait`);
  }
  if (waitSteps.size === 0) violations.push("no episode ever waited");
  const delivered = Number(facts.meta.measured.signalsDelivered ?? 0);
  const duplicates = Number(facts.meta.measured.signalDuplicates ?? 0);
  // Each waiting episode is sent `go` twice per pass (and again while it has not resumed): one
  // key, so at most one delivery per signal-waiting fire, however many sends.
  const signalFires = Number(facts.meta.measured.signalFires ?? 0);
  if (delivered > signalFires) {
    violations.push(`${delivered} signals delivered for ${signalFires} signal-waiting episodes`);
  }
  if (delivered > 0 && duplicates < delivered) {
    violations.push(`only ${duplicates} repeated sends were refused for ${delivered} signals`);
  }
  return {
    details: {
      waited: waitSteps.size,
      resumed,
      waitedTwice: waitedTwice.length,
      signalsDelivered: delivered,
      signalDuplicatesRefused: duplicates,
      signalFires,
      kills: nemesisEvents(facts.history, "kill").length,
      restarts: nemesisEvents(facts.history, "pg-start").length,
      pauses: nemesisEvents(facts.history, "pause").length,
    },
    violations,
  };
};
