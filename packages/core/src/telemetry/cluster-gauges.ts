import { Gauge, type Registry } from "prom-client";
import type { Queryable } from "../db/index";
import { silentLogger, type Logger } from "./logger";
import {
  readPendingRequestsByEnv,
  readRunningNodeSightings,
  type PendingRequestsByEnv,
  type RunningNodeSighting,
} from "./queries/index";

export interface ClusterGaugesOptions {
  db: Queryable;
  registry: Registry;
  /** A running node seen within this window is live (nodes' DEFAULT_LIVE_WITHIN_MS: 15 s). */
  liveWithinMs?: number;
  /** Silent nodes stay in `cyclium_node_last_seen_seconds` this long (default 24 h). */
  forgetAfterMs?: number;
  logger?: Logger;
}

interface ClusterState {
  requests: PendingRequestsByEnv[];
  nodes: RunningNodeSighting[];
}

/**
 * Gauges of the cluster's state as the database holds it, read at scrape time: what no single
 * node's counters can say (a request nobody picks up, a node that stopped reporting). Every node
 * exports the same values; alert rules take `max` over them, so any one live node is enough.
 * A failed read leaves the gauges empty for that scrape rather than failing `/metrics`.
 */
export function registerClusterGauges(options: ClusterGaugesOptions): void {
  const { db, registry } = options;
  const logger = options.logger ?? silentLogger;
  const liveWithinSeconds = (options.liveWithinMs ?? 15_000) / 1000;
  const forgetAfterSeconds = (options.forgetAfterMs ?? 24 * 3_600_000) / 1000;
  let inFlight: Promise<ClusterState | undefined> | undefined;

  // prom-client collects a scrape's metrics concurrently: the four gauges share the read in flight.
  const read = (): Promise<ClusterState | undefined> => {
    inFlight ??= Promise.all([
      readPendingRequestsByEnv({ db }),
      readRunningNodeSightings({ db, withinSeconds: forgetAfterSeconds }),
    ])
      .then(
        ([requests, nodes]) => ({ requests, nodes }),
        (err: unknown) => {
          logger.warn(
            { err },
            "reading the cluster gauges failed; leaving them out of this scrape",
          );
          return undefined;
        },
      )
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
  const env = (value: string | null) => value ?? "";

  new Gauge({
    name: "cyclium_trigger_requests_pending",
    help: "Trigger requests waiting for a full-mode worker, per env (database-wide).",
    labelNames: ["env"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await read())?.requests ?? [])
        this.set({ env: env(row.env) }, row.pending);
    },
  });
  new Gauge({
    name: "cyclium_trigger_requests_oldest_pending_seconds",
    help: "Age of the oldest pending trigger request, per env (absent when none is pending).",
    labelNames: ["env"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await read())?.requests ?? []) {
        this.set({ env: env(row.env) }, row.oldestSeconds);
      }
    },
  });
  new Gauge({
    name: "cyclium_nodes_live",
    help: "Running nodes whose heartbeat is recent, per kind, node-wide mode and env.",
    labelNames: ["kind", "mode", "env"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const node of (await read())?.nodes ?? []) {
        if (node.lastSeenSeconds <= liveWithinSeconds) {
          this.inc({ kind: node.kind, mode: node.mode, env: env(node.env) });
        }
      }
    },
  });
  new Gauge({
    name: "cyclium_node_last_seen_seconds",
    help: "Seconds since each node that has not stopped cleanly last reported (seen in 24 h).",
    labelNames: ["node", "kind", "env"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const node of (await read())?.nodes ?? []) {
        this.set(
          { node: node.identity, kind: node.kind, env: env(node.env) },
          node.lastSeenSeconds,
        );
      }
    },
  });
}
