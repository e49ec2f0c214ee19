/**
 * One sweeping node of the recovery benchmark as a process of its own: connects its pool, prints
 * `ready`, sweeps once when it reads `go` on stdin (so every node starts together), prints its
 * result as one JSON line and exits. Configured by one JSON argument.
 */
import { createInterface } from "node:readline";
import pg from "pg";
import { z } from "zod";
import { PostgresWorkClaims } from "../src/claims/index";
import { sweepOrphanedEpisodes } from "../src/recovery/index";
import { Telemetry } from "../src/telemetry/index";

const ZConfig = z.object({
  url: z.string(),
  node: z.string(),
  workClaims: z.boolean(),
  limit: z.number().int().positive(),
});
const config = ZConfig.parse(JSON.parse(process.argv[2] ?? "{}"));

const pool = new pg.Pool({ connectionString: config.url, max: 5 });
// Open the connections first: the timing is of the sweep, not of connection set-up.
await Promise.all([pool.query("SELECT 1"), pool.query("SELECT 1")]);
console.log(JSON.stringify({ event: "ready" }));

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line !== "go") continue;
  const telemetry = new Telemetry();
  const result = await sweepOrphanedEpisodes(
    {
      db: pool,
      node: config.node,
      scope: { stack: null, env: null },
      telemetry,
      ...(config.workClaims ? { claims: new PostgresWorkClaims({ db: pool, telemetry }) } : {}),
    },
    { resolvePolicy: () => "restart", limit: config.limit },
  );
  console.log(
    JSON.stringify({ event: "swept", claimed: result.claimed, durationMs: result.durationMs }),
  );
  break;
}
lines.close();
await pool.end();
