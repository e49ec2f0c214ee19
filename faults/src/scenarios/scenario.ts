import type { Cluster, ClusterConfig } from "../cluster/cluster";
import type { PostgresServer } from "../cluster/postgres-server";
import type { HistoryWriter } from "../history/history-writer";

/** Measurements a scenario reports about itself (copied into scenario.json). */
export type Measured = Record<string, number | string | boolean>;

/** What a scenario's `run` gets: its running cluster and the means to hurt it. */
export interface ScenarioRun {
  cluster: Cluster;
  server: PostgresServer;
  /** The scenario's own database. */
  databaseUrl: string;
  /** The nemesis log: every fault, with its target and real time. */
  nemesis: HistoryWriter;
  quick: boolean;
  /** Scenario 10's random source: `--seed` or a fresh seed, printed at the start. */
  seed: number;
  /** Aborted when the scenario passed its time bound: loops must end, waits give up. */
  signal: AbortSignal;
  log: (message: string) => void;
}

export interface Scenario {
  id: number;
  name: string;
  /** Cluster settings that differ from the defaults. */
  cluster?: Partial<Omit<ClusterConfig, "dir" | "databaseUrl">>;
  /** Fires, faults and waits; resolves once every fire was answered (the drain follows). */
  run(run: ScenarioRun): Promise<Measured>;
}

/**
 * The cluster every scenario starts from. A 3 s lease (renewed every second) is short enough
 * that a takeover is quick and long enough that a loaded 2-core machine does not lose leases to
 * scheduling delays; an episode silent for 4 s (longer than a lease, so that its claim has
 * lapsed) is presumed orphaned, and every worker sweeps every second.
 */
/**
 * The fault-free scenarios (1 and 7) assert that no lease expires early: no steal, no failed
 * renewal, no abort. With the 3 s lease an owner loses its claim after 2.7 s without a renewal
 * landing (renewals every second, each allowed a second), which a worker whose event loop and
 * pool queue stall behind the unit tests on the same 2 cores can reach without any fault. 6 s
 * (renewals every 2 s, 5.4 s to lapse) keeps the assertion about the product and not the machine;
 * five minutes of clock skew (scenario 7) still dwarf it, and their episodes outlive a renewal
 * interval so that renewals happen.
 */
export const QUIET_CLUSTER = { leaseSeconds: 6, staleAfterMs: 7_000 } as const;

export const DEFAULT_CLUSTER = {
  workers: 4,
  leaseSeconds: 3,
  pollIntervalMs: 1_000,
  recoveryDelayMs: 1_000,
  recoveryIntervalMs: 1_000,
  staleAfterMs: 4_000,
} as const;

/**
 * How long core lets a node's heartbeat go silent before the queue it held counts as abandoned
 * and another node adopts it (core's DEFAULT_NODE_SILENCE_MS: three missed 5 s beats). A worker
 * replaced under a new identity leaves its queue behind for at least this long.
 */
export const NODE_SILENCE_MS = 15_000;

/**
 * How long nothing may move before the open work left counts as settled (and, without a live
 * owner, stuck): twice what the slowest recovery path needs by design (a gone node's silence,
 * then a lease, the staleness and a sweep), and never under 30 s, so that a sweep slowed by a
 * loaded machine is not mistaken for a missing one. 46 s with the defaults.
 */
export function stallWindowMs(config: {
  leaseSeconds: number;
  staleAfterMs: number;
  recoveryIntervalMs: number;
}): number {
  const recoveryMs =
    NODE_SILENCE_MS + config.leaseSeconds * 1000 + config.staleAfterMs + config.recoveryIntervalMs;
  return Math.max(30_000, 2 * recoveryMs);
}
