// One node's findings expiry sweep for the multi-process test: sweeps every 100 ms under the
// shared work claim, as findingsExpiryExtension does, and prints each sweep as a JSON line.
import pg from "pg";
import { PostgresWorkClaims } from "../../claims/index";
import { startRepeatAfterRun } from "../../timers/index";
import { silentLogger, Telemetry } from "../../telemetry/index";
import { sweepExpiredFindings } from "../sweep-expired-findings";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
await pool.query("SELECT 1");
const print = (event: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ...event })}\n`);
};
const owner = process.env.NODE_ID ?? `sweeper-${process.pid}`;
const claims = new PostgresWorkClaims({ db: pool });
let sweeps = 0;
const timer = startRepeatAfterRun({
  delayMs: 0,
  intervalMs: 100,
  onFailed: () => undefined,
  run: async () => {
    const result = await sweepExpiredFindings(
      { claims, owner, leaseSeconds: 10, logger: silentLogger, telemetry: new Telemetry() },
      pool,
    );
    sweeps += 1;
    print({
      event: "sweep",
      sweeps,
      status: result.kind,
      cleared: result.kind === "swept" ? result.cleared.map((finding) => finding.id) : [],
    });
  },
});
print({ event: "ready" });
process.on("SIGTERM", () => {
  void timer
    .stop()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
