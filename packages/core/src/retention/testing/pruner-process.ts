// One node's pruner for the kill test: a run with small batches, printing a JSON line before each
// batch so the test can SIGKILL it while a delete statement is in flight.
import pg from "pg";
import { PostgresWorkClaims } from "../../claims/index";
import { silentLogger, Telemetry } from "../../telemetry/index";
import { DEFAULT_RETENTION_POLICY } from "../retention-policy";
import { runPruner } from "../run-pruner";

// The application name lets the test wait for this process's backends to end after the kill.
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 2,
  application_name: process.env.APPLICATION_NAME ?? "cyclium-pruner-test",
});
const print = (event: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ...event })}\n`);
};
let batches = 0;
const result = await runPruner(
  {
    claims: new PostgresWorkClaims({ db: pool }),
    owner: process.env.NODE_ID ?? `pruner-${process.pid}`,
    leaseSeconds: Number(process.env.LEASE_SECONDS ?? 2),
    policy: DEFAULT_RETENTION_POLICY,
    trigger: "scheduled",
    batchSize: Number(process.env.BATCH_SIZE ?? 200),
    maxBatches: 1_000,
    logger: silentLogger,
    telemetry: new Telemetry(),
    onBatch: (family) => {
      batches += 1;
      print({ event: "batch", family, batches });
    },
  },
  pool,
);
print({ event: "done", kind: result.kind });
await pool.end();
