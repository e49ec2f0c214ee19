// Soak (issue 16): steady firing with the pruner on, the size of every cyclium_ table sampled
// every minute. Not a test: `pnpm --filter @cyclium/bench exec tsx src/retention/soak.ts`.
//   SOAK_MINUTES (30)  SOAK_RATE (episodes/s, 50)  SOAK_RETENTION (5m: short, so that a
//   30-minute run reaches the steady state; the default 7d would need a week)
// Starts its own PostgreSQL (embedded, temp dir) and one worker in this process; prints one JSON
// line per minute and a Markdown table at the end.
import { createClient, runWorker } from "@cyclium/core";
import { DEFAULT_RETENTION_POLICY } from "../../../packages/core/src/retention/index";
import { startPrivateTestServer } from "@cyclium/db/testing";
import pg from "pg";
import { readSoakEnv } from "./env";
import { soakDeployment } from "./soak-deployment";
import { sampleTableSizes, type SizeSample } from "./table-sizes";

const { minutes, rate, retentionText, retentionMs } = readSoakEnv();

const server = await startPrivateTestServer();
const worker = await runWorker({
  deployment: soakDeployment,
  databaseUrl: server.url,
  migrate: false,
  port: 0,
  logLevel: "warn",
  jitterMs: 0,
  recovery: false,
  poller: { intervalMs: 500 },
  pruner: {
    policy: { ...DEFAULT_RETENTION_POLICY, episodes: retentionMs, telemetryMinutes: retentionMs },
    intervalMs: 10_000,
    delayMs: 10_000,
  },
});
const client = createClient({ connectionString: server.url }, { deployment: soakDeployment });
const stats = new pg.Pool({ connectionString: server.url, max: 1 });

let fired = 0;
const started = Date.now();
const firing = setInterval(() => {
  const due = Math.floor(((Date.now() - started) / 1000) * rate) - fired;
  for (let i = 0; i < due; i += 1) {
    fired += 1;
    void client.fire({ actorId: "soak", expectationId: "run" }).catch(() => undefined);
  }
}, 50);

const curve: (SizeSample & { minute: number; fired: number; prunedEpisodes: number })[] = [];
const pruned = async () =>
  Number(
    (
      await stats.query<{ n: string }>(
        `SELECT coalesce(sum((deleted->>'episodes')::bigint), 0)::text AS n FROM cyclium_pruner_runs`,
      )
    ).rows[0]?.n ?? 0,
  );
for (let minute = 0; minute <= minutes; minute += 1) {
  if (minute > 0) await new Promise((resolve) => setTimeout(resolve, 60_000));
  const sample = {
    minute,
    fired,
    prunedEpisodes: await pruned(),
    ...(await sampleTableSizes(stats)),
  };
  curve.push(sample);
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}
clearInterval(firing);

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `\nSoak: ${rate}/s for ${minutes} min, episodes kept ${retentionText}, pruner every 10 s\n`,
);
console.log(
  "| minute | fired | episodes | steps | claims | requests | pruned episodes | cyclium_ tables MB |",
);
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const s of curve) {
  console.log(
    `| ${s.minute} | ${s.fired} | ${s.episodes} | ${s.steps} | ${s.claims} | ${s.requests} | ${s.prunedEpisodes} | ${mb(s.totalBytes)} |`,
  );
}
await client.close();
await stats.end();
await worker.node.stop({ graceMs: 1_000 });
await server.remove();
process.exit(0);
