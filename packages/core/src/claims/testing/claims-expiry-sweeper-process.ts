// One node's claims expiry sweep for the multi-process test: the node's timer (every 100 ms here,
// 60 s by default) under the shared work claim, printing each sweep as a JSON line.
import pg from "pg";
import { silentLogger, Telemetry } from "../../telemetry/index";
import { startClaimsExpiryTimer } from "../claims-expiry-timer";
import { PostgresWorkClaims } from "../postgres-work-claims";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
await pool.query("SELECT 1");
const print = (event: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ...event })}\n`);
};
const owner = process.env.NODE_ID ?? `sweeper-${process.pid}`;
const telemetry = new Telemetry();
let counted = 0;
telemetry.subscribe((event) => (counted += event.measurements.count ?? 0), {
  events: ["cyclium.work_claims.expired"],
});
let sweeps = 0;
const timer = startClaimsExpiryTimer({
  claims: new PostgresWorkClaims({ db: pool }),
  owner,
  leaseSeconds: 10,
  delayMs: 0,
  intervalMs: 100,
  logger: silentLogger,
  telemetry,
  onSwept: (result) => {
    sweeps += 1;
    print({
      event: "sweep",
      sweeps,
      kind: result.kind,
      expired: result.kind === "swept" ? result.expiredKeys : [],
      counted,
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
