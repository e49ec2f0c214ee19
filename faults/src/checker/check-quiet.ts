import type { ScenarioCheck } from "./scenario-check";

/**
 * Scenarios without faults (1, and 7 whose only fault is the nodes' wall clocks): the SPEC's
 * alert conditions must stay silent. A steal means a lease expired while its owner was alive
 * and renewing; a failed renew means an owner was told it lost a claim nobody took; an aborted
 * episode means a node gave up work it still held.
 */
export const checkQuiet: ScenarioCheck = (facts) => {
  const violations: string[] = [];
  const steals = facts.history.filter((r) => r.op === "claim" && r.event === "steal");
  const renewFailed = facts.history.filter((r) => r.op === "claim" && r.event === "renew_failed");
  const aborts = facts.history.filter((r) => r.op === "abort");
  const fenced = facts.history.filter((r) => r.op === "episode" && r.event === "fenced");
  if (steals.length > 0) violations.push(`${steals.length} claim(s) stolen without a fault`);
  if (renewFailed.length > 0) {
    const first = renewFailed[0];
    violations.push(
      `${renewFailed.length} renewal(s) failed without a fault (first: ${first?.proc} ${first?.op === "claim" ? first.key : ""})`,
    );
  }
  if (aborts.length > 0) violations.push(`${aborts.length} episode(s) aborted without a fault`);
  if (fenced.length > 0) violations.push(`${fenced.length} write(s) fenced without a fault`);
  return { details: {}, violations };
};
