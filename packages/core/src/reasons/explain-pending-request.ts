import {
  ALL_NODES,
  effectiveModeFor,
  resolveModes,
  type Mode,
  type ModeOverride,
  type ResolvedModes,
} from "../modes/index";
import { runsOnStack } from "../actors/actor-definition";
import type { LiveNode } from "../nodes/queries/index";

export const PENDING_REASONS = [
  "no_live_nodes",
  "no_full_nodes",
  "no_full_nodes_in_env",
  "actor_not_full",
  "no_full_nodes_for_stack",
  "waiting_for_poll",
  "not_picked_up",
] as const;

export type PendingReasonCode = (typeof PENDING_REASONS)[number];

export interface PendingReason {
  code: PendingReasonCode;
  /** One sentence an operator can act on. */
  message: string;
  /** Live full-mode nodes of the env that could take the request (for `waiting_for_poll`). */
  candidates: string[];
}

/**
 * How long a request may wait before "a poll will take it" stops being a good explanation:
 * two default fallback polls (CYCLIUM_TRIGGER_POLL_INTERVAL_MS = 15000, issue 28).
 */
export const EXPECTED_PICKUP_MS = 30_000;

const envLabel = (env: string | null) => (env === null ? "default" : env);

/** What the explanation needs of a live node: the modes it last reported. */
export type NodeModes = Pick<LiveNode, "identity" | "mode" | "overrides" | "env"> & {
  /** Checked against the actor's `stacks` when the caller knows them. */
  stack?: string | null;
};
export type OverrideRow = Pick<ModeOverride, "targetNode" | "actorId" | "mode" | "setBy">;

/**
 * The modes a node applies: core's resolveModes over the stored rows, with what the node last
 * reported as the weakest layer. The stored rows win over the report: they are the newer intent
 * and nodes apply them within a second, while reports lag by a heartbeat.
 */
function resolveNode(node: NodeModes, rows: readonly OverrideRow[]): ResolvedModes {
  const reported = Object.entries(node.overrides).map(([actorId, mode]) => ({
    targetNode: ALL_NODES,
    actorId,
    mode,
  }));
  // Reported overrides go first, so any stored '*' or own row for the same actor replaces them.
  return resolveModes(node.mode, node.identity, [...reported, ...rows]);
}

/** The stored row that set `mode` for (node, actor), the node's own row before '*'. */
function sourceRow(
  rows: readonly OverrideRow[],
  node: NodeModes,
  actorId: string | null,
  mode: Mode,
): OverrideRow | undefined {
  const matches = (target: string) => (row: OverrideRow) =>
    row.targetNode === target && row.actorId === actorId && row.mode === mode;
  return rows.find(matches(node.identity)) ?? rows.find(matches(ALL_NODES));
}

/** The mode a node applies to an actor, and the stored row it comes from (else "reported"). */
export function effectiveActorMode(
  node: NodeModes,
  actorId: string,
  rows: readonly OverrideRow[],
): { mode: Mode; source: OverrideRow | "reported" } {
  const resolved = resolveNode(node, rows);
  const mode = effectiveModeFor(resolved, actorId);
  const source =
    (resolved.nodeMode === "disabled" ? undefined : sourceRow(rows, node, actorId, mode)) ??
    sourceRow(rows, node, null, resolved.nodeMode);
  return { mode, source: source ?? "reported" };
}

/**
 * Why a pending trigger request has not been dispatched, judged the way a full node's poller
 * decides (SPEC section 6): it runs only while the node-wide mode is `full`, reads requests of
 * its own env (strictly), hosts only actors whose `stacks` name its stack (when `actor` is given)
 * and skips actors whose effective mode there is not `full`.
 */
export function explainPendingRequest(
  request: { actorId: string; sourceEnv: string | null; ageMs: number },
  cluster: { nodes: readonly NodeModes[]; overrideRows: readonly OverrideRow[] },
  actor?: { stacks: readonly string[] },
): PendingReason {
  const { nodes, overrideRows } = cluster;
  if (nodes.length === 0) {
    return {
      code: "no_live_nodes",
      message: "No node is alive. Start a worker (full mode) to execute deferred episodes.",
      candidates: [],
    };
  }
  const full = nodes.filter((node) => resolveNode(node, overrideRows).nodeMode === "full");
  if (full.length === 0) {
    const modes = nodes.map((n) => `${n.identity} is ${resolveNode(n, overrideRows).nodeMode}`);
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
  const hosting =
    actor === undefined ? inEnv : inEnv.filter((node) => runsOnStack(actor, node.stack ?? null));
  if (hosting.length === 0) {
    const where = inEnv.map((n) => `${n.identity} is stack ${n.stack ?? "(none)"}`);
    return {
      code: "no_full_nodes_for_stack",
      message:
        `No live full-mode node of env ${envLabel(request.sourceEnv)} runs ${request.actorId}: ` +
        `it runs on stacks ${actor?.stacks.join(", ") ?? ""} (${where.join(", ")}).`,
      candidates: [],
    };
  }
  const able = hosting.filter(
    (node) => effectiveActorMode(node, request.actorId, overrideRows).mode === "full",
  );
  if (able.length === 0) {
    const why = hosting.map((node) => {
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
