import {
  ACTORS,
  EVENT_ACTORS,
  FAIL_POLICY_ACTORS,
  WORK_EXPECTATION,
} from "../cluster/fault-actors";
import type { THistoryRecord } from "../history/records";
import { zeroCounts, type Counts, type EpisodeRow, type RunFacts, type StepRow } from "./run-facts";

type FireRecord = Extract<THistoryRecord, { op: "fire" }>;
type PublishRecord = Extract<THistoryRecord, { op: "publish" }>;

export interface CommonCheck {
  counts: Counts;
  violations: string[];
  details: Record<string, string | number>;
  /** Episodes by id, and the journal per episode in write (id) order, for scenario checks. */
  episodesById: Map<string, EpisodeRow>;
  journal: Map<string, StepRow[]>;
}

/** Whether an episode ended the way its actor's recovery policy allows. */
export function acceptableEnd(episode: EpisodeRow): boolean {
  if (episode.status === "completed") return true;
  return (
    FAIL_POLICY_ACTORS.has(episode.actor_id) &&
    episode.status === "failed" &&
    episode.error_class === "orphaned"
  );
}

const isInfo = (record: { type: string }): boolean => record.type === "info";

function outcomeOf(records: readonly { type: string }[]): "ok" | "fail" | "info" {
  if (records.some((r) => r.type === "ok")) return "ok";
  if (records.some((r) => r.type === "fail")) return "fail";
  // `info`, or an invoke whose process died before it could answer: unknown either way.
  return "info";
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function inputKey(episode: EpisodeRow): string | undefined {
  const input = episode.input;
  if (typeof input !== "object" || input === null || !("key" in input)) return undefined;
  return typeof input.key === "string" ? input.key : undefined;
}

/**
 * The checks every scenario shares, over the whole history:
 *
 * - a client operation (a fire by idempotency key, a published event) is *acknowledged* when one
 *   of its tries answered ok, *unknown* when at least one try got no definite answer (a timeout,
 *   a lost connection: the client retried it with the same key); it is *lost* when it then has no episode, or its episode did not
 *   end as its policy allows (restart: completed; fail: completed or failed `orphaned`);
 * - *duplicated*: more than one episode for one operation, or an episode with more than one
 *   `done` in its journal, or completed (telemetry) by more than one process;
 * - violations: a journal write of an older claim attempt that landed after a newer attempt's
 *   (a zombie write fencing should have rejected), and episodes created before the cluster settled
 *   and still unfinished after the drain.
 */
export function checkCommon(facts: RunFacts): CommonCheck {
  const violations: string[] = [];
  const episodesById = new Map(facts.episodes.map((e) => [e.id, e]));
  const byDedupeKey = groupBy(
    facts.episodes.filter((e) => e.dedupe_key !== null),
    (e) => e.dedupe_key ?? "",
  );
  const pings = groupBy(
    facts.episodes.filter((e) => EVENT_ACTORS.has(e.actor_id)),
    (e) => inputKey(e) ?? "",
  );
  // Write order: ids come from a sequence, and the fence's row lock orders a zombie's write and
  // the steal that fences it.
  const ordered = [...facts.steps].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const journal = groupBy(ordered, (s) => s.episode_id);
  const counts: Counts = zeroCounts();
  const lostExamples: string[] = [];
  let unresolved = 0;
  const duplicated = new Set<string>();

  const fires = facts.history.filter((r): r is FireRecord => r.op === "fire");
  for (const [key, records] of groupBy(fires, (r) => `${r.actor}\u0000${r.key}`)) {
    const [actor = "", opKey = ""] = key.split("\u0000");
    const episodes = byDedupeKey.get(`manual:${actor}:${WORK_EXPECTATION}:${opKey}`) ?? [];
    tally(outcomeOf(records), records.some(isInfo), episodes, `fire ${opKey}`);
  }
  const publishes = facts.history.filter((r): r is PublishRecord => r.op === "publish");
  for (const [key, records] of groupBy(publishes, (r) => r.key)) {
    tally(outcomeOf(records), records.some(isInfo), pings.get(key) ?? [], `event ${key}`);
  }

  function tally(
    outcome: "ok" | "fail" | "info",
    indeterminate: boolean,
    episodes: EpisodeRow[],
    label: string,
  ): void {
    counts.attempted += 1;
    if (indeterminate) counts.unknown += 1;
    if (outcome === "info") unresolved += 1;
    if (episodes.length > 1) duplicated.add(label);
    if (outcome !== "ok") return;
    counts.acknowledged += 1;
    const episode = episodes[0];
    if (episode === undefined || !acceptableEnd(episode)) {
      counts.lost += 1;
      if (lostExamples.length < 5) {
        lostExamples.push(
          episode ? `${label} (${episode.status} ${episode.id})` : `${label} (no episode)`,
        );
      }
    }
  }

  const completedBy = groupBy(
    facts.history.filter((r) => r.op === "episode" && r.event === "completed"),
    (r) => (r.op === "episode" ? r.episodeId : ""),
  );
  for (const episode of facts.episodes) {
    const steps = journal.get(episode.id) ?? [];
    const dones = steps.filter((s) => s.outcome === "done").length;
    const completers = new Set((completedBy.get(episode.id) ?? []).map((r) => r.proc)).size;
    if (dones > 1 || completers > 1) duplicated.add(`episode ${episode.id}`);
    for (let i = 1; i < steps.length; i += 1) {
      const before = steps[i - 1];
      const after = steps[i];
      if (before && after && after.attempt < before.attempt) {
        violations.push(
          `episode ${episode.id}: a step of claim attempt ${after.attempt} (node ${after.node}) landed after attempt ${before.attempt}'s`,
        );
        break;
      }
    }
    counts.recovered += episode.recovery_history.length;
  }
  counts.duplicated = duplicated.size;
  counts.fenced = facts.history.filter((r) => r.op === "episode" && r.event === "fenced").length;

  // Open at the end, and created before the cluster settled. An episode a cron window created
  // while the settled cluster was being stopped (a node draining starts it, or hands it over,
  // and leaves it for recovery) has no node left to finish it in this run, and is not stuck: the
  // next node's recovery sweep takes it. It is counted in the details instead.
  const settledAt = facts.meta.settledAt ?? Number.POSITIVE_INFINITY;
  const open = facts.episodes.filter(
    (e) => e.status === "pending" || e.status === "running" || e.status === "waiting",
  );
  const unfinished = open.filter((e) => e.inserted_at < settledAt);
  if (unfinished.length > 0) {
    const first = unfinished[0];
    violations.push(
      `${unfinished.length} episode(s) unfinished after the drain (e.g. ${first?.actor_id} ${first?.id} ${first?.status})`,
    );
  }
  if (lostExamples.length > 0) violations.push(`lost: ${lostExamples.join("; ")}`);
  if (duplicated.size > 0) violations.push(`duplicated: ${[...duplicated].slice(0, 5).join("; ")}`);

  const details = {
    ...commonDetails(facts),
    unresolvedOps: unresolved,
    ...(open.length > unfinished.length
      ? { openFromTheStop: open.length - unfinished.length }
      : {}),
  };
  return { counts, violations, details, episodesById, journal };
}

function commonDetails(facts: RunFacts): Record<string, string | number> {
  const count = (predicate: (r: THistoryRecord) => boolean): number =>
    facts.history.filter(predicate).length;
  const aborts = groupBy(
    facts.history.flatMap((r) => (r.op === "abort" ? [r.reason] : [])),
    (reason) => reason,
  );
  return {
    episodes: facts.episodes.length,
    completed: facts.episodes.filter((e) => e.status === "completed").length,
    orphaned: facts.episodes.filter((e) => e.error_class === "orphaned").length,
    steals: count((r) => r.op === "claim" && r.event === "steal"),
    renewFailed: count((r) => r.op === "claim" && r.event === "renew_failed"),
    aborts: [...aborts].map(([reason, list]) => `${reason}×${list.length}`).join(" ") || "0",
    cronWindows: facts.episodes.filter((e) => e.actor_id === ACTORS.cron).length,
    drainMs: Math.round(facts.meta.drainMs),
  };
}
