import type { ScenarioCheck } from "./scenario-check";
import { checkQuiet } from "./check-quiet";

/**
 * Scenario 7: the workers' clocks really were skewed (each `ready` record carries the process's
 * wall-clock offset; a preload that silently failed would make the scenario vacuous), and the
 * fault-free invariants hold regardless: no steal, failed renewal, abort or fenced write.
 */
export const checkSkew: ScenarioCheck = (facts, common) => {
  const quiet = checkQuiet(facts, common);
  const skews = facts.history.flatMap((r) =>
    r.op === "node" && r.event === "ready" && r.skewMs !== undefined ? [r.skewMs] : [],
  );
  const violations = [...quiet.violations];
  // Starting a worker takes a while; a skew under a minute means the preload did not apply.
  const unskewed = skews.filter((skew) => Math.abs(skew) < 60_000).length;
  if (skews.length === 0 || unskewed > 0) {
    violations.push(`${unskewed} of ${skews.length} processes ran with their real clock`);
  }
  const minutes = skews.map((skew) => `${skew > 0 ? "+" : ""}${(skew / 60_000).toFixed(1)}`);
  return { details: { "clock offsets (min)": minutes.join(" ") }, violations };
};
