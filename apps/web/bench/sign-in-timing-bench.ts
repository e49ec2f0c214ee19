/**
 * Sign-in timing (issue 29): an unknown email must cost what a known email with a wrong password
 * costs, or response times tell a prober which accounts exist. Calls signIn (what the sign-in
 * form's action calls) against a real database, alternating the two cases so both see the same
 * load, and prints the median of each and their difference. Not a test: nothing is asserted; the
 * goal is a difference within 10 %.
 *
 *   pnpm --filter @cyclium/web bench:sign-in      (BENCH_RUNS, default 50 per case)
 */
import { performance } from "node:perf_hooks";
import { ensureUser } from "@cyclium/core/console";
import { createTestDatabase, prepareTestServer } from "@cyclium/db/testing";
import { hashPassword } from "../src/server/auth/password-hash";
import { signIn } from "../src/server/auth/sign-in";
import { readBenchEnv } from "./env";

const WARM_UP = 5;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function main(): Promise<void> {
  const env = readBenchEnv();
  const runs = process.argv.includes("--quick") ? 10 : Math.max(env.BENCH_RUNS, 50);
  const server = await prepareTestServer(env.DATABASE_URL);
  const database = await createTestDatabase({
    prefix: "cyclium_bench",
    serverUrl: server.serverUrl,
    templateDatabase: server.templateDatabase,
    poolSize: 4,
  });
  try {
    const db = database.pool;
    await ensureUser({
      db,
      email: "known@bench.test",
      name: "Known",
      passwordHash: await hashPassword("the right password of the known account"),
      role: "admin",
    });
    const timings = { unknown: [] as number[], known: [] as number[] };
    for (let run = -WARM_UP; run < runs; run += 1) {
      for (const kind of ["unknown", "known"] as const) {
        // A fresh client address per attempt: the throttle's backoff (5 free failures per
        // account and address) would otherwise answer early without checking any password.
        const ip = `198.51.100.${run + WARM_UP}-${kind}`;
        const email = kind === "known" ? "known@bench.test" : `nobody-${run}@bench.test`;
        const started = performance.now();
        const result = await signIn({
          db,
          input: { email, password: "a wrong password for this bench" },
          ip,
          userAgent: "sign-in-timing-bench",
        });
        const elapsed = performance.now() - started;
        if (result.kind !== "invalid_credentials") throw new Error(`unexpected ${result.kind}`);
        if (run >= 0) timings[kind].push(elapsed);
      }
    }
    const unknown = median(timings.unknown);
    const known = median(timings.known);
    const difference = (Math.abs(unknown - known) / Math.max(unknown, known)) * 100;
    console.log(`sign-in, ${runs} attempts each, medians:`);
    console.log(`  unknown email:              ${unknown.toFixed(1)} ms`);
    console.log(`  known email, wrong password: ${known.toFixed(1)} ms`);
    console.log(`  difference:                 ${difference.toFixed(1)} % (goal: within 10 %)`);
  } finally {
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
