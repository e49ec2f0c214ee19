import { ACTORS, LIMITED_GLOBAL } from "../cluster/fault-actors";
import type { THistoryRecord } from "../history/records";
import type { LimitStartRow } from "./run-facts";
import type { ScenarioCheck } from "./scenario-check";

/**
 * Scenario 11: the most runs of the limited actor at one instant, from the workers' histories.
 * A run spans its `run` record to the last record its process wrote for that attempt (a step, an
 * abort): inside the time the database counted the episode `running` (it starts before the
 * strategy and ends after the end statement commits), so more runs at once here than the limit
 * would be more in the database too. Every process writes with the same host clock.
 */
export function maxConcurrentRuns(
  history: readonly THistoryRecord[],
  isLimited: (episodeId: string) => boolean,
): { peak: number; runs: number } {
  const spans = new Map<string, { from: number; to: number }>();
  for (const r of history) {
    if (r.op !== "run" && r.op !== "step" && r.op !== "abort") continue;
    if (!isLimited(r.episodeId)) continue;
    const attempt = r.op === "abort" ? undefined : r.attempt;
    // An abort carries no attempt: it ends the newest run of the episode by that process.
    const key =
      attempt === undefined
        ? [...spans.keys()].filter((k) => k.startsWith(`${r.proc}|${r.episodeId}|`)).at(-1)
        : `${r.proc}|${r.episodeId}|${attempt}`;
    if (key === undefined) continue;
    const span = spans.get(key);
    if (r.op === "run" || span === undefined) spans.set(key, { from: r.t, to: r.t });
    else span.to = Math.max(span.to, r.t);
  }
  const edges = [...spans.values()].flatMap(({ from, to }) => [
    { t: from, d: 1 },
    { t: to, d: -1 },
  ]);
  // At one instant an end counts before a start: the slot an end frees is what lets a start in.
  edges.sort((a, b) => a.t - b.t || a.d - b.d);
  let running = 0;
  let peak = 0;
  for (const edge of edges) {
    running += edge.d;
    peak = Math.max(peak, running);
  }
  return { peak, runs: spans.size };
}

/**
 * The database's own count (db/limit-starts.jsonl): the most of the actor's episodes running at
 * any start, and the starts whose episode holds no concurrency key (so no later start counted it).
 * `leastLagMs`: of every run record, the least time from its start in the database (the audit's
 * clock, in the start's transaction) to the record. A run begins after its start commits, so
 * below zero means a process's clock runs behind the host's, and the histories' overlaps are
 * off by as much.
 */
export function databaseStarts(
  starts: readonly LimitStartRow[],
  history: readonly THistoryRecord[] = [],
): { peak: number; keyless: number; leastLagMs: number | null } {
  const startedAt = new Map(
    starts.map((start) => [`${start.episode_id}|${start.attempt}`, start.at]),
  );
  let leastLagMs: number | null = null;
  for (const r of history) {
    if (r.op !== "run") continue;
    const at = startedAt.get(`${r.episodeId}|${r.attempt}`);
    if (at === undefined) continue;
    leastLagMs = Math.min(leastLagMs ?? Infinity, r.t - at);
  }
  return {
    peak: Math.max(0, ...starts.map((start) => start.running)),
    keyless: starts.filter((start) => (start.limit_keys ?? []).length === 0).length,
    leastLagMs: leastLagMs === null ? null : Math.round(leastLagMs * 100) / 100,
  };
}

export const checkLimits: ScenarioCheck = (facts, common) => {
  const limited = (id: string) => common.episodesById.get(id)?.actor_id === ACTORS.limited;
  const { peak, runs } = maxConcurrentRuns(facts.history, limited);
  const episodes = [...common.episodesById.values()].filter((e) => e.actor_id === ACTORS.limited);
  const retried = episodes.filter((e) => e.attempt > 1).length;
  const violations: string[] = [];
  if (peak > LIMITED_GLOBAL) {
    violations.push(
      `${peak} runs of ${ACTORS.limited} at once, over its limit of ${LIMITED_GLOBAL}`,
    );
  }
  const db = databaseStarts(facts.limitStarts, facts.history);
  if (db.peak > LIMITED_GLOBAL) {
    violations.push(
      `the database ran ${db.peak} of ${ACTORS.limited} at once, over its limit of ${LIMITED_GLOBAL}`,
    );
  }
  if (db.keyless > 0) violations.push(`${db.keyless} starts of ${ACTORS.limited} hold no key`);
  if (episodes.length > 0 && facts.limitStarts.length === 0) {
    violations.push("no start was recorded by the database's audit");
  }
  if (episodes.length > 0 && retried === 0) violations.push("no episode was retried");
  return {
    details: {
      limit: LIMITED_GLOBAL,
      "most running at once": peak,
      "most running at a start (database)": db.peak,
      runs,
      "starts (database)": facts.limitStarts.length,
      ...(db.leastLagMs === null ? {} : { "least ms from a start to its run": db.leastLagMs }),
      "episodes retried": retried,
    },
    violations,
  };
};
