// One sweeping node for the multi-process sweep test: connects, says ready, sweeps once when it
// reads "go" on stdin (so all nodes start together), prints what it recovered and exits.
import { createInterface } from "node:readline";
import pg from "pg";
import { PostgresWorkClaims } from "../../claims/index";
import { sweepOrphanedEpisodes } from "../recovery-sweep";

const env = process.env;
const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 });
await pool.query("SELECT 1");
const print = (event: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ...event })}\n`);
};
print({ event: "ready" });
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line !== "go") continue;
  const result = await sweepOrphanedEpisodes(
    {
      db: pool,
      node: env.NODE_ID ?? `sweeper-${process.pid}`,
      scope: { stack: null, env: null },
      ...(env.CLAIMS === "postgres" ? { claims: new PostgresWorkClaims({ db: pool }) } : {}),
    },
    { resolvePolicy: () => "restart", staleAfterMs: 1_000 },
  );
  print({
    event: "swept",
    found: result.found,
    claimed: result.claimed,
    ids: result.recovered.map((episode) => episode.id),
  });
  break;
}
lines.close();
await pool.end();
