import { checkCommon, type CommonCheck } from "./check-common";
import { checkDedupe } from "./check-dedupe";
import { checkKills } from "./check-kills";
import { checkPartition } from "./check-partition";
import { checkPause } from "./check-pause";
import { checkQuiet } from "./check-quiet";
import { checkRestart } from "./check-restart";
import { checkSkew } from "./check-skew";
import { loadRun } from "./load-run";
import type { RunFacts, ScenarioReport } from "./run-facts";

/** A scenario's own invariants on top of the common ones: more figures, more violations. */
export type ScenarioCheck = (
  facts: RunFacts,
  common: CommonCheck,
) => { details: Record<string, string | number>; violations: string[] };

/** By scenario id; the common checks apply to every scenario. */
const SCENARIO_CHECKS = new Map<number, ScenarioCheck>([
  [1, checkQuiet],
  [2, checkKills],
  [3, checkPause],
  [4, checkRestart],
  [5, checkPartition],
  [6, checkDedupe],
  [7, checkSkew],
]);

/** Checks one scenario's results directory; the run passes only without lost, duplicated or violations. */
export async function checkRun(dir: string): Promise<ScenarioReport> {
  const facts = await loadRun(dir);
  const common = checkCommon(facts);
  const own = SCENARIO_CHECKS.get(facts.meta.id)?.(facts, common) ?? {
    details: {},
    violations: [],
  };
  const violations = [...common.violations, ...own.violations];
  if (!facts.meta.drained) violations.push("the drain timed out");
  if (facts.meta.error !== undefined) violations.push(`the scenario failed: ${facts.meta.error}`);
  return {
    id: facts.meta.id,
    name: facts.meta.name,
    counts: common.counts,
    details: { ...common.details, ...own.details },
    violations,
    passed: common.counts.lost === 0 && common.counts.duplicated === 0 && violations.length === 0,
  };
}
