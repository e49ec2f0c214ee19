import { z } from "zod";
import { ZMode } from "../modes/index";
import type { NodeInfo, NodeRecord } from "./node";

export const NODE_COLUMNS = `identity, kind, mode, overrides, stack, env, host, pid, version, status,
  started_at, last_seen_at, stopped_at, strategies`;

/**
 * Rows are validated rather than cast: cyclium_nodes has no CHECK constraints on kind, status or
 * mode, and `overrides` is free JSON another version of the product may have written.
 */
const ZNodeRow = z.object({
  identity: z.string(),
  kind: z.enum(["web", "worker"]),
  mode: ZMode,
  overrides: z.record(z.string(), ZMode).catch({}),
  stack: z.string().nullable(),
  env: z.string().nullable(),
  host: z.string().nullable(),
  pid: z.number().int().nullable(),
  version: z.string().nullable(),
  status: z.enum(["running", "stopped"]),
  started_at: z.date(),
  last_seen_at: z.date(),
  stopped_at: z.date().nullable(),
  strategies: z.array(z.string()).catch([]),
  live: z.boolean(),
});

export function toNodeRecord(row: unknown): NodeRecord {
  const r = ZNodeRow.parse(row);
  return {
    identity: r.identity,
    kind: r.kind,
    mode: r.mode,
    overrides: r.overrides,
    stack: r.stack,
    env: r.env,
    host: r.host,
    pid: r.pid,
    version: r.version,
    status: r.status,
    startedAt: r.started_at,
    lastSeenAt: r.last_seen_at,
    stoppedAt: r.stopped_at,
    strategies: r.strategies,
    live: r.live,
  };
}

/** Bind parameters $1..$10 shared by registerNode and recordNodeHeartbeat. */
export function nodeInfoParams(node: NodeInfo): unknown[] {
  if (node.identity.length === 0) throw new TypeError("node identity must not be empty");
  return [
    node.identity,
    node.kind,
    ZMode.parse(node.mode),
    JSON.stringify(node.overrides ?? {}),
    node.stack ?? null,
    node.env ?? null,
    node.host ?? null,
    node.pid ?? null,
    node.version ?? null,
    [...new Set(node.strategies ?? [])].sort(),
  ];
}
