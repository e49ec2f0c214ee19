import { ACTORS } from "../cluster/fault-actors";
import type { ScenarioCheck } from "./scenario-check";

const MINUTE_MS = 60_000;

/** `schedule:ticker:tick:2026-11-30T00:51Z` -> the window's instant. */
function windowOf(dedupeKey: string | null): number | undefined {
  const match = /:(\d{4}-\d\d-\d\dT\d\d:\d\d)Z$/.exec(dedupeKey ?? "");
  return match?.[1] === undefined ? undefined : Date.parse(`${match[1]}:00Z`);
}

/**
 * Scenario 6, on top of the common checks (one episode per event and per operator key): of the
 * five nodes that fired each operator key at once, exactly one was told it created the episode
 * and the others that it was deduplicated; and every minute boundary the whole cluster was up
 * for produced exactly one cron episode (none is a lost tick).
 */
export const checkDedupe: ScenarioCheck = (facts) => {
  const violations: string[] = [];
  const created = new Map<string, Set<string>>();
  const answers = new Map<string, number>();
  for (const r of facts.history) {
    if (r.op !== "fire" || r.type !== "ok" || !r.key.startsWith("s6-op-")) continue;
    answers.set(r.key, (answers.get(r.key) ?? 0) + 1);
    if (r.episodeId !== undefined) {
      const set = created.get(r.key) ?? new Set<string>();
      set.add(r.episodeId);
      created.set(r.key, set);
    }
  }
  for (const [key, count] of answers) {
    const winners = created.get(key)?.size ?? 0;
    if (winners !== 1)
      violations.push(
        `operator key ${key}: ${winners} of ${count} racing fires created an episode`,
      );
  }

  const ready = facts.history.filter((r) => r.op === "node" && r.event === "ready").map((r) => r.t);
  const stopping = facts.history
    .filter((r) => r.op === "node" && r.event === "stopping")
    .map((r) => r.t);
  const from = Math.max(...ready);
  const until = Math.min(...stopping);
  const windows = new Map<number, number>();
  for (const episode of facts.episodes) {
    if (episode.actor_id !== ACTORS.cron) continue;
    const window = windowOf(episode.dedupe_key);
    if (window !== undefined) windows.set(window, (windows.get(window) ?? 0) + 1);
  }
  let ticksDue = 0;
  // A second of margin each side: a node that just started or is stopping may miss the tick.
  for (
    let tick = Math.ceil((from + 1_000) / MINUTE_MS) * MINUTE_MS;
    tick < until - 1_000;
    tick += MINUTE_MS
  ) {
    ticksDue += 1;
    const count = windows.get(tick) ?? 0;
    if (count !== 1)
      violations.push(`cron window ${new Date(tick).toISOString()}: ${count} episodes`);
  }
  return {
    details: {
      insertsThatLostTheRace: facts.history.filter((r) => r.op === "dedupe").length,
      operatorKeys: answers.size,
      racingFiresPerKey:
        answers.size === 0
          ? 0
          : Math.round([...answers.values()].reduce((a, b) => a + b, 0) / answers.size),
      cronTicksDue: ticksDue,
      cronTicksRaced: facts.meta.measured.alignedOnTick === true ? "yes" : "no",
    },
    violations,
  };
};
