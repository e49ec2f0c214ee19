import type { TLiveHint } from "@/server/live/live-hint";

/**
 * The reads a pushed hint can make stale, as tRPC paths: a router (`findings`, every procedure
 * under it) or one procedure (`episodes.list`). Episode facets are left out on purpose: they
 * scan the episodes table and change little; they keep their own slow poll.
 */
const EPISODE_READS = [
  "episodes.list",
  "episodes.detail",
  "episodes.checkpoints",
  "episodes.outputs",
  "episodes.waitReasons",
  "overview.stats",
  "claims",
  "triggerRequests",
  "recovery.overview",
  "workflows",
  "triggers",
] as const;

const EVERYTHING = ["*"] as const;

/**
 * Which reads to refetch for one hint. Unknown topics refetch the overview only: a new kind of
 * event should not make every open page reload.
 */
export function readsForHint(hint: Pick<TLiveHint, "topic">): readonly string[] {
  const topic = hint.topic;
  if (topic === "live.ready" || topic === "live.resync") return EVERYTHING;
  if (topic.startsWith("episode.") || topic === "expectation.triggered") return EPISODE_READS;
  if (topic.startsWith("workflow.")) return ["workflows", "triggers", "overview.stats"];
  if (topic.startsWith("finding.")) return ["findings", "overview.stats"];
  if (topic.startsWith("actor.") || topic.startsWith("circuit_breaker.")) {
    return ["actors.circuitBreakers", "overview.stats"];
  }
  // A node's modes decide why pending work waits, too.
  if (topic.startsWith("node.")) {
    return ["modes", "overview.stats", "episodes.waitReasons", "triggerRequests"];
  }
  if (topic.startsWith("agent_definitions.")) return ["agentDefinitions", "actors.list"];
  return ["overview.stats"];
}

/** The tRPC path of a TanStack query key made by @trpc/tanstack-react-query (`[["a","b"], …]`). */
export function trpcPathOfQueryKey(queryKey: readonly unknown[]): string {
  const path = queryKey[0];
  return Array.isArray(path) ? path.join(".") : "";
}

/** Whether a query at `path` is one of `reads` (a router name covers its procedures). */
export function isStaleAfter(path: string, reads: Iterable<string>): boolean {
  for (const read of reads) {
    if (read === "*") return path !== "episodes.facets";
    if (path === read || path.startsWith(`${read}.`)) return true;
  }
  return false;
}
