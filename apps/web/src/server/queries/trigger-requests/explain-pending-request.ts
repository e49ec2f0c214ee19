import type { TClusterModes, TNodeModes, TOverrideRow } from "../nodes/list-node-modes";

export const PENDING_REASONS = [
  "no_live_nodes",
  "no_full_nodes",
  "no_full_nodes_in_env",
  "actor_not_full",
  "waiting_for_poll",
  "not_picked_up",
] as const;

export type TPendingReasonCode = (typeof PENDING_REASONS)[number];

export interface TPendingReason {
  code: TPendingReasonCode;
  /** One sentence an operator can act on. */
  message: string;
  /** Live full-mode nodes of the env that could take the request (for `waiting_for_poll`). */
  candidates: string[];
}

/**
 * How long a request may wait before "a poll will take it" stops being a good explanation:
 * two default poll intervals (SPEC section 6: CYCLIUM_TRIGGER_POLL_INTERVAL_MS = 5000).
 */
export const EXPECTED_PICKUP_MS = 10_000;

const envLabel = (env: string | null) => (env === null ? "default" : env);

function rowFor(rows: readonly TOverrideRow[], target: string, actorId: string | null) {
  return rows.find((row) => row.targetNode === target && row.actorId === actorId);
}

/**
 * The mode a node applies to an actor. The stored rows win over what the node last reported:
 * they are the newer intent and nodes apply them within a second, while reports lag by a
 * heartbeat. Precedence mirrors core's resolveModes: own row > '*' row > reported state, and a
 * node-wide `disabled` stops every actor.
 */
export function effectiveActorMode(
  node: TNodeModes,
  actorId: string,
  rows: readonly TOverrideRow[],
): { mode: string; source: TOverrideRow | "reported" } {
  const nodeRow = rowFor(rows, node.identity, null) ?? rowFor(rows, "*", null);
  const nodeMode = nodeRow?.mode ?? node.mode;
  if (nodeMode === "disabled") return { mode: "disabled", source: nodeRow ?? "reported" };
  const actorRow = rowFor(rows, node.identity, actorId) ?? rowFor(rows, "*", actorId);
  if (actorRow) return { mode: actorRow.mode, source: actorRow };
  return { mode: node.overrides[actorId] ?? nodeMode, source: nodeRow ?? "reported" };
}

function nodeWideMode(node: TNodeModes, rows: readonly TOverrideRow[]): string {
  return (rowFor(rows, node.identity, null) ?? rowFor(rows, "*", null))?.mode ?? node.mode;
}

/**
 * Why a pending trigger request has not been dispatched, judged the way a full node's poller
 * decides (SPEC section 6): it runs only while the node-wide mode is `full`, reads requests of
 * its own env (strictly), and skips actors whose effective mode there is not `full`.
 */
export function explainPendingRequest(
  request: { actorId: string; sourceEnv: string | null; ageMs: number },
  cluster: TClusterModes,
): TPendingReason {
  const { nodes, overrideRows } = cluster;
  if (nodes.length === 0) {
    return {
      code: "no_live_nodes",
      message: "No node is alive. Start a worker (full mode) to execute deferred episodes.",
      candidates: [],
    };
  }
  const full = nodes.filter((node) => nodeWideMode(node, overrideRows) === "full");
  if (full.length === 0) {
    const modes = nodes.map((n) => `${n.identity} is ${nodeWideMode(n, overrideRows)}`);
    return {
      code: "no_full_nodes",
      message: `No live node runs in full mode (${modes.join(", ")}).`,
      candidates: [],
    };
  }
  const inEnv = full.filter((node) => node.env === request.sourceEnv);
  if (inEnv.length === 0) {
    const where = full.map((n) => `${n.identity} serves env ${envLabel(n.env)}`);
    return {
      code: "no_full_nodes_in_env",
      message: `No live full-mode node serves env ${envLabel(request.sourceEnv)} (${where.join(", ")}).`,
      candidates: [],
    };
  }
  const able = inEnv.filter(
    (node) => effectiveActorMode(node, request.actorId, overrideRows).mode === "full",
  );
  if (able.length === 0) {
    const why = inEnv.map((node) => {
      const { mode, source } = effectiveActorMode(node, request.actorId, overrideRows);
      const by = source !== "reported" && source.setBy ? ` (set by ${source.setBy})` : "";
      const what = source !== "reported" && source.actorId !== null ? "an override" : "node mode";
      return `${node.identity} has ${request.actorId} in ${mode} by ${what}${by}`;
    });
    return {
      code: "actor_not_full",
      message: `No live full-mode node has ${request.actorId} in full mode: ${why.join("; ")}.`,
      candidates: [],
    };
  }
  const candidates = able.map((node) => node.identity);
  if (request.ageMs <= EXPECTED_PICKUP_MS) {
    return {
      code: "waiting_for_poll",
      message: `Waiting for the next poll: ${candidates.join(", ")} can take it.`,
      candidates,
    };
  }
  return {
    code: "not_picked_up",
    message:
      `${candidates.join(", ")} could take it but has not: ${request.actorId} may be at its ` +
      "concurrency limit or not run on that node's stack, or the node's poller may be off.",
    candidates,
  };
}
