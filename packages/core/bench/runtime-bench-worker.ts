/**
 * One worker process of the runtime benchmark: a full-mode node with the poller, four no-op
 * actors and nothing else (no logs, no rollups). Configured by one JSON argument rather than the
 * environment, so the benchmark can start several with different identities.
 */
import pg from "pg";
import { z } from "zod";
import { defineActor } from "../src/actors/index";
import { createCycliumNode } from "../src/nodes/index";
import { noopStrategy } from "../src/runtime/testing/index";
import { silentLogger, Telemetry } from "../src/telemetry/index";

export const BENCH_ACTORS = ["bench_0", "bench_1", "bench_2", "bench_3"] as const;

const ZConfig = z.object({ url: z.string(), identity: z.string(), pollIntervalMs: z.number() });
const config = ZConfig.parse(JSON.parse(process.argv[2] ?? "{}"));

const pool = new pg.Pool({ connectionString: config.url, max: 10 });
const node = await createCycliumNode({
  db: pool,
  databaseUrl: config.url,
  kind: "worker",
  mode: "full",
  nodeIdentity: config.identity,
  stack: null,
  env: null,
  workClaims: "postgres",
  leaseSeconds: 120,
  poller: { enabled: true, intervalMs: config.pollIntervalMs, sourceStack: null },
  actors: BENCH_ACTORS.map((identifier) =>
    defineActor({
      identifier,
      expectations: [{ id: "run", strategy: noopStrategy, trigger: { manual: true } }],
    }),
  ),
  dynamicActors: false,
  telemetryRollups: false,
  jitterMs: 0,
  logger: silentLogger,
  telemetry: new Telemetry(),
});
await node.start();
console.log("ready");

process.on("SIGTERM", () => {
  void node
    .stop({ graceMs: 5_000 })
    .then(() => pool.end())
    .then(() => process.exit(0));
});
