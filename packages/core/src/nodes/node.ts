import type { Mode } from "../modes/index";

export type NodeKind = "web" | "worker";
export type NodeStatus = "running" | "stopped";

/** What a node reports about itself on registration and on every heartbeat. */
export interface NodeInfo {
  identity: string;
  kind: NodeKind;
  /** Node-wide mode in force. */
  mode: Mode;
  /** Per-actor overrides in force, actor id -> mode. */
  overrides?: Record<string, Mode>;
  stack?: string | null;
  env?: string | null;
  host?: string | null;
  pid?: number | null;
  version?: string | null;
  /** Names in the node's StrategyRegistry (what dynamic actors may name). */
  strategies?: readonly string[];
}

/** One row of cyclium_nodes, with liveness judged by the database clock. */
export interface NodeRecord {
  identity: string;
  kind: NodeKind;
  mode: Mode;
  overrides: Record<string, Mode>;
  stack: string | null;
  env: string | null;
  host: string | null;
  pid: number | null;
  version: string | null;
  status: NodeStatus;
  startedAt: Date;
  lastSeenAt: Date;
  stoppedAt: Date | null;
  /** Names in the node's StrategyRegistry, sorted. */
  strategies: string[];
  /** Running and seen within the `liveWithinMs` window of the query. */
  live: boolean;
}
