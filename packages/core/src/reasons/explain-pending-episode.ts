import type { LimitWait } from "../limits/index";
import { resolveConcurrencyLimits, type ConcurrencyOverrideEntry } from "../modes/index";
import {
  effectiveActorMode,
  explainPendingRequest,
  type NodeModes,
  type OverrideRow,
} from "./explain-pending-request";

/** Why a pending episode has not started: a trigger request's reasons and the queue's own. */
export const EPISODE_WAIT_REASONS = [
  "no_live_nodes",
  "no_full_nodes",
  "no_full_nodes_in_env",
  "no_full_nodes_for_stack",
  "actor_not_full",
  "scheduled",
  "concurrency_limited",
  "rate_limited",
  "waiting_for_poll",
  "not_picked_up",
  "queue_owner_gone",
  "slots_full",
  "starting",
  "claimed",
  "waiting",
] as const;

export type EpisodeWaitCode = (typeof EPISODE_WAIT_REASONS)[number];

export interface EpisodeWaitReason {
  code: EpisodeWaitCode;
  /** One sentence an operator can act on. */
  message: string;
  /** Live full-mode nodes that could take it (a pending request's candidates). */
  candidates: string[];
  /** When a node's queue holds it: where, its place in line, and that node's slots. */
  queue: {
    node: string;
    /** 1 = next to start. Counted up to 10,000 ahead. */
    position: number;
    running: number;
    /** The actor's limit on that node (override, else definition); null when not known here. */
    limit: number | null;
  } | null;
}

/** What the database says about one pending episode (explainPendingEpisodes reads it). */
export interface PendingEpisodeFacts {
  actorId: string;
  sourceEnv: string | null;
  /** The node whose queue holds it, or null (a trigger request owns it). */
  queuedBy: string | null;
  /** Pending episodes of the same actor ahead of it in `queuedBy`'s queue. */
  ahead: number;
  /** Its open trigger request, if any. */
  request: {
    status: "pending" | "claimed";
    claimedBy: string | null;
    /** How long it has been due (0 while it is not). */
    ageMs: number;
    /** How long until it is due (a delayed run or a retry's backoff); 0 once it is. */
    dueInMs: number;
    /** When it is due, and its claim priority (SPEC section 16). */
    runAt: Date;
    priority: number;
  } | null;
  /** Running episodes of its actor, per executing node. */
  runningByNode: Readonly<Record<string, number>>;
  /**
   * Its last start refused by a cluster-wide limit (SPEC section 16): the rule, and now, how many
   * hold its key and where (a concurrency limit), or whether its `until` is still ahead (rate).
   */
  limit?: {
    wait: LimitWait;
    running: number;
    nodes: readonly string[];
    rateActive: boolean;
  } | null;
}

export interface WaitCluster {
  nodes: readonly NodeModes[];
  overrideRows: readonly OverrideRow[];
  limitRows: readonly ConcurrencyOverrideEntry[];
}

/** What a deployment says of the actor (the console's registry); unknown for a foreign actor. */
export type WaitActor = { stacks: readonly string[]; maxConcurrentEpisodes: number } | undefined;

function limitOn(node: string, actorId: string, cluster: WaitCluster, actor: WaitActor) {
  const override = resolveConcurrencyLimits(node, cluster.limitRows).get(actorId);
  return override ?? actor?.maxConcurrentEpisodes ?? null;
}

/**
 * Why a pending episode has not started, judged as the nodes decide: a node's queue starts it
 * when the actor is `full` there and a slot is free (by priority, then arrival); a trigger
 * request waits for a full node of its env and stack with the actor `full` and a free slot. A
 * paused trigger holds nothing here: pausing stops a trigger's schedule, not episodes already created.
 */
export function explainPendingEpisode(
  episode: PendingEpisodeFacts,
  cluster: WaitCluster,
  actor: WaitActor,
): EpisodeWaitReason {
  const { actorId, queuedBy } = episode;
  if (queuedBy !== null) return explainQueued(episode, queuedBy, cluster, actor);
  const request = episode.request;
  if (request?.status === "claimed" && request.claimedBy !== null) {
    const node = request.claimedBy;
    const running = episode.runningByNode[node] ?? 0;
    const limit = limitOn(node, actorId, cluster, actor);
    const slots = limit === null ? "" : ` (${running} of ${limit} running there)`;
    return {
      code: "claimed",
      message: `Its trigger request was claimed by ${node}; it waits in that node's queue for a slot${slots}.`,
      candidates: [node],
      queue: null,
    };
  }
  if (request?.status !== "pending") {
    return {
      code: "waiting",
      message: "Waiting to be picked up: nothing holds it.",
      candidates: [],
      queue: null,
    };
  }
  if (request.dueInMs > 0) {
    return {
      code: "scheduled",
      message: `Scheduled: no node takes it before ${request.runAt.toISOString()} (in ${formatWait(request.dueInMs)}), priority ${request.priority}.`,
      candidates: [],
      queue: null,
    };
  }
  const limited = explainLimit(episode.limit ?? null);
  if (limited !== undefined) return limited;
  const reason = explainPendingRequest(
    { actorId, sourceEnv: episode.sourceEnv, ageMs: request.ageMs },
    cluster,
    actor,
  );
  const base = { ...reason, queue: null };
  if (reason.code !== "not_picked_up" && reason.code !== "waiting_for_poll") return base;
  const busy = reason.candidates.map((node) => ({
    node,
    running: episode.runningByNode[node] ?? 0,
    limit: limitOn(node, actorId, cluster, actor),
  }));
  if (busy.every(({ running, limit }) => limit !== null && running >= limit)) {
    const where = busy.map(({ node, running, limit }) => `${node} ${running} of ${limit}`);
    return {
      ...base,
      code: "slots_full",
      message: `${actorId} is at its limit on every node that could take it (${where.join(", ")}); the request waits for a free slot.`,
    };
  }
  return base;
}

function explainQueued(
  episode: PendingEpisodeFacts,
  node: string,
  cluster: WaitCluster,
  actor: WaitActor,
): EpisodeWaitReason {
  const { actorId } = episode;
  const running = episode.runningByNode[node] ?? 0;
  const limit = limitOn(node, actorId, cluster, actor);
  const queue = { node, position: episode.ahead + 1, running, limit };
  const owner = cluster.nodes.find((candidate) => candidate.identity === node);
  if (owner === undefined) {
    return {
      code: "queue_owner_gone",
      message: `Queued on ${node}, which is not alive (no heartbeat for 30 s, or stopped): recovery hands its queue to a live full node, or ${node} runs it when it is back.`,
      candidates: [],
      queue,
    };
  }
  const { mode, source } = effectiveActorMode(owner, actorId, cluster.overrideRows);
  if (mode !== "full") {
    const by = source !== "reported" && source.setBy ? ` (set by ${source.setBy})` : "";
    const what = source !== "reported" && source.actorId !== null ? "an override" : "node mode";
    return {
      code: "actor_not_full",
      message: `Queued on ${node}, which has ${actorId} in ${mode} by ${what}${by}: the node hands its queue over as trigger requests for a full node.`,
      candidates: [],
      queue,
    };
  }
  const ahead = episode.ahead === 1 ? "1 episode" : `${episode.ahead} episodes`;
  if (limit !== null && running >= limit) {
    return {
      code: "slots_full",
      message: `${actorId} runs at most ${limit} at once on ${node} and ${running} are running; this episode is number ${queue.position} in line there (${ahead} ahead).`,
      candidates: [node],
      queue,
    };
  }
  return {
    code: "starting",
    message: `Number ${queue.position} in ${node}'s queue for ${actorId} with a slot free: it starts within moments.`,
    candidates: [node],
    queue,
  };
}

/**
 * A cluster-wide limit still full: "global limit 5/5, running on w1, w2" or "rate limited until
 * <t>". Undefined when the limit that refused its last start has room again (it starts at the
 * next poll, and the other reasons say what else holds it).
 */
function explainLimit(limit: PendingEpisodeFacts["limit"]): EpisodeWaitReason | undefined {
  if (limit === null || limit === undefined) return undefined;
  const { wait } = limit;
  if (wait.c === "rate") {
    if (!limit.rateActive || wait.until === undefined) return undefined;
    const period = wait.p === undefined ? "" : ` (${wait.l} starts per ${formatWait(wait.p)})`;
    return {
      code: "rate_limited",
      message: `Rate limited until ${wait.until.toISOString()}${period}: no node starts it before.`,
      candidates: [],
      queue: null,
    };
  }
  if (limit.running < wait.l) return undefined;
  const where = limit.nodes.length === 0 ? "" : `, running on ${limit.nodes.join(", ")}`;
  const which = wait.k.startsWith("global:")
    ? "Global limit"
    : `Limit for key "${wait.k.slice(wait.k.lastIndexOf(":") + 1)}"`;
  return {
    code: "concurrency_limited",
    message: `${which} ${limit.running}/${wait.l}${where}: it starts when one of them ends.`,
    candidates: [...limit.nodes],
    queue: null,
  };
}

/** "45 s", "12 min", "3 h": how long until a scheduled request is due. */
function formatWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}
