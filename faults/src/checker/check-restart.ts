import type { ScenarioCheck } from "./scenario-check";
import { nemesisEvents } from "./history-queries";

/**
 * Slack on top of what recovery needs by design (5 s with the suite's settings), for a sweep that
 * is itself slow on a loaded machine right after a restart: every node reconnects at once, pools
 * refill, and the workers' event loops lag while their unit-test neighbours hold both cores. It
 * was 5 s with the silence counted from before the outage, so the server's own down time and
 * WAL replay (seconds on a loaded machine) ate the margin; silence is now counted from the
 * server's start and the slack is 15 s: only a recovery that does not come for four of its own
 * design bounds fails the run. That it comes at all is the "nothing stuck" check's.
 */
const SLACK_MS = 15_000;

/**
 * Scenario 4: the server came back, every worker heard a bus probe published after it (the run
 * waits for that and fails otherwise), and no running episode stayed silent longer than recovery
 * needs: its lease lapses, it turns stale, and the next sweep (every interval) takes it.
 */
export const checkRestart: ScenarioCheck = (facts) => {
  const { meta } = facts;
  const bound =
    Math.max(meta.leaseSeconds * 1000, meta.staleAfterMs) + meta.recoveryIntervalMs + SLACK_MS;
  const silence = Number(meta.measured.maxSilentRunningMs ?? 0);
  const violations: string[] = [];
  if (silence > bound) {
    violations.push(
      `a running episode stayed silent ${(silence / 1000).toFixed(1)} s (bound ${(bound / 1000).toFixed(1)} s)`,
    );
  }
  const restarts = nemesisEvents(facts.history, "pg-start").length;
  if (restarts === 0) violations.push("PostgreSQL was never restarted");
  const probesPerWorker = new Map<string, number>();
  for (const r of facts.history) {
    if (r.op === "probe") probesPerWorker.set(r.proc, (probesPerWorker.get(r.proc) ?? 0) + 1);
  }
  return {
    details: {
      restarts,
      longestDownS: (Number(meta.measured.longestDownMs ?? 0) / 1000).toFixed(1),
      "bus listening again after": `${(Number(meta.measured.busBackMs ?? 0) / 1000).toFixed(1)}s`,
      "longest silent running episode": `${(silence / 1000).toFixed(1)}s (bound ${(bound / 1000).toFixed(1)}s)`,
      workersHearingProbes: probesPerWorker.size,
    },
    violations,
  };
};
