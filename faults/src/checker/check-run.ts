import { checkCommon } from "./check-common";
import { checkDedupe } from "./check-dedupe";
import { checkKills } from "./check-kills";
import { checkLimits } from "./check-limits";
import { checkPartition } from "./check-partition";
import { checkPause } from "./check-pause";
import { checkQueueKills, checkQueueRestart, checkRandomMix } from "./check-queue-faults";
import { checkQuiet } from "./check-quiet";
import { checkRestart } from "./check-restart";
import { checkSkew } from "./check-skew";
import { checkStuck } from "./check-stuck";
import { checkWaits } from "./check-waits";
import { loadRun } from "./load-run";
import type { ScenarioReport } from "./run-facts";
import type { ScenarioCheck } from "./scenario-check";

/** By scenario id; the common checks apply to every scenario. */
const SCENARIO_CHECKS = new Map<number, ScenarioCheck>([
  [1, checkQuiet],
  [2, checkKills],
  [3, checkPause],
  [4, checkRestart],
  [5, checkPartition],
  [6, checkDedupe],
  [7, checkSkew],
  [8, checkQueueKills],
  [9, checkQueueRestart],
  [10, checkRandomMix],
  [11, checkLimits],
  [12, checkWaits],
]);

/**
 * Checks one scenario's results directory; the run passes only with 0 lost, 0 duplicated, 0
 * stuck and no violated invariant.
 */
export async function checkRun(dir: string): Promise<ScenarioReport> {
  const facts = await loadRun(dir);
  const common = checkCommon(facts);
  const own = SCENARIO_CHECKS.get(facts.meta.id)?.(facts, common) ?? {
    details: {},
    violations: [],
  };
  const stuck = checkStuck(facts);
  const violations = [...common.violations, ...stuck.violations, ...own.violations];
  if (
    facts.meta.settled === "timed_out" ||
    (facts.meta.settled === undefined && !facts.meta.drained)
  )
    violations.push("the cluster was still busy when the wait for quiescence reached its bound");
  if (facts.meta.error !== undefined) violations.push(`the scenario failed: ${facts.meta.error}`);
  return {
    id: facts.meta.id,
    name: facts.meta.name,
    counts: { ...common.counts, stuck: stuck.stuck },
    details: { ...common.details, ...stuck.details, ...own.details },
    violations,
    passed:
      common.counts.lost === 0 &&
      common.counts.duplicated === 0 &&
      stuck.stuck === 0 &&
      violations.length === 0,
  };
}
