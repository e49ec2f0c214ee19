import type { OpenRow, RunFacts } from "./run-facts";

/** Why an open episode counts as stuck: nothing that is still alive can ever run it. */
export type StuckReason =
  | "pending, no open request, no queue owner"
  | "pending, queued by a gone node"
  | "pending, request claimed by a gone node"
  | "running on a gone node"
  | "owned by a live node that did nothing with it while the cluster stood still";

export type Ownership = { kind: "owned"; by: string } | { kind: "stuck"; reason: StuckReason };

/**
 * Who can still run an episode left open once the cluster settled. A pending episode is owned by
 * an open trigger request (pending: any poller takes it; claimed: by a live node) or by the queue
 * of a live node (`queued_by`; before core records it, no pending episode has a queue owner, so
 * every pending one without an open request is stuck, as issue 18 measured). A running episode
 * is owned by its executing node while that is alive.
 */
export function ownershipOf(row: OpenRow, live: ReadonlySet<string>): Ownership {
  if (row.status === "running") {
    return row.executed_by !== null && live.has(row.executed_by)
      ? { kind: "owned", by: `executed by ${row.executed_by}` }
      : { kind: "stuck", reason: "running on a gone node" };
  }
  if (row.open_request === "pending") return { kind: "owned", by: "a pending trigger request" };
  if (row.open_request === "claimed") {
    return row.request_claimed_by !== null && live.has(row.request_claimed_by)
      ? { kind: "owned", by: `a request claimed by ${row.request_claimed_by}` }
      : { kind: "stuck", reason: "pending, request claimed by a gone node" };
  }
  if (row.queued_by !== null) {
    return live.has(row.queued_by)
      ? { kind: "owned", by: `the queue of ${row.queued_by}` }
      : { kind: "stuck", reason: "pending, queued by a gone node" };
  }
  return { kind: "stuck", reason: "pending, no open request, no queue owner" };
}

/**
 * Runs recorded before the snapshot existed: the final dump stands in for it (taken after the
 * graceful stop, with no live node), so every open episode without an open request is stuck.
 */
function openFromDump(facts: RunFacts): OpenRow[] {
  const openRequests = new Map(
    facts.requests
      .filter((r) => r.status === "pending" || r.status === "claimed")
      .map((r) => [r.episode_id, r]),
  );
  return facts.episodes
    .filter((e) => e.status === "pending" || e.status === "running" || e.status === "waiting")
    .map((e) => {
      const request = openRequests.get(e.id);
      return {
        id: e.id,
        actor_id: e.actor_id,
        status: e.status,
        trigger_type: e.trigger_type,
        source_node: null,
        executed_by: e.executed_by,
        queued_by: null,
        open_request: request?.status ?? null,
        request_claimed_by: request?.claimed_by ?? null,
        idle_ms: 0,
      };
    });
}

export interface StuckCheck {
  stuck: number;
  details: Record<string, string | number>;
  violations: string[];
}

/**
 * "Nothing stuck" (issue 18): once the scenario ended and the cluster settled (every episode
 * final, or nothing moved for twice what recovery needs), no episode may be pending or running
 * without a live owner, nor sit with a live owner through the whole still window.
 */
export function checkStuck(facts: RunFacts): StuckCheck {
  const live = new Set(facts.meta.liveNodes ?? []);
  // Settled by standing still: nothing finished, journaled or restarted for the whole window
  // (twice what recovery needs). An owner that let its episode sit through that does not run it:
  // a request claimed by a node whose dispatch failed stays `claimed` by a live node for good.
  const stoodStill = facts.meta.settled === "stalled";
  const open = facts.meta.liveNodes === undefined ? openFromDump(facts) : facts.open;
  const reasons = new Map<StuckReason, number>();
  const examples: string[] = [];
  let owned = 0;
  for (const row of open) {
    const nominal = ownershipOf(row, live);
    const ownership: Ownership =
      nominal.kind === "owned" && stoodStill
        ? {
            kind: "stuck",
            reason: "owned by a live node that did nothing with it while the cluster stood still",
          }
        : nominal;
    if (ownership.kind === "owned") {
      owned += 1;
      continue;
    }
    reasons.set(ownership.reason, (reasons.get(ownership.reason) ?? 0) + 1);
    if (examples.length < 3) {
      const owner = nominal.kind === "owned" ? `, nominally ${nominal.by}` : "";
      examples.push(`${row.actor_id} ${row.id} (${ownership.reason}${owner})`);
    }
  }
  const stuck = open.length - owned;
  const violations =
    stuck > 0
      ? [
          `${stuck} episode(s) stuck with no live owner after the cluster settled (${facts.meta.settled ?? "drain timed out"}): ${[
            ...reasons,
          ]
            .map(([reason, n]) => `${n} ${reason}`)
            .join(", ")}; e.g. ${examples.join("; ")}`,
        ]
      : [];
  return {
    stuck,
    details: {
      settled: facts.meta.settled ?? (facts.meta.drained ? "drained" : "timed_out"),
      openAtSettle: open.length,
      openButOwned: owned,
    },
    violations,
  };
}
