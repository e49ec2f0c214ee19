import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedTestUsers, TEST_PASSWORD } from "./testing/auth-test-kit";
import { signIn } from "./sign-in";
import { createSignInThrottle, FREE_FAILURES } from "@cyclium/core/console";

let database: TestDatabase;
/** A second pool on the same database: what a second console process holds. */
let otherProcessPool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedTestUsers(database.pool);
  otherProcessPool = new pg.Pool({ connectionString: database.url, max: 2 });
  otherProcessPool.on("error", () => undefined);
});

afterAll(async () => {
  await otherProcessPool.end();
  await database.drop();
});

beforeEach(async () => {
  await database.pool.query(`DELETE FROM cyclium_sign_in_attempts`);
});

const OWNER = "admin@test.local";

/** Runs testing/sign-in-failures-process.ts as its own Node.js process and waits for it. */
async function recordFailuresInAProcess(failures: number): Promise<void> {
  const entry = fileURLToPath(new URL("./testing/sign-in-failures-process.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      ADDRESS: "192.0.2.9",
      EMAIL: OWNER,
      FAILURES: String(failures),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code).toBe(0);
}

const attempt = (ip: string, password: string, pool: pg.Pool = database.pool) =>
  signIn({
    db: database.pool,
    input: { email: OWNER, password },
    ip,
    userAgent: "vitest",
    throttle: createSignInThrottle(pool),
  });

describe("the sign-in throttle", () => {
  it("cannot be turned into a lockout of the owner by failures from other addresses", async () => {
    // Far past the old per-account budget (20 per hour, from any address).
    for (let i = 0; i < 40; i += 1) {
      await attempt(`198.51.100.${i % 8}`, "guess");
    }
    const attacker = await attempt("198.51.100.1", TEST_PASSWORD);
    expect(attacker).toMatchObject({ kind: "rate_limited" });
    const owner = await attempt("203.0.113.7", TEST_PASSWORD);
    expect(owner.kind).toBe("signed_in");
  });

  it("backs off exponentially per account and address", async () => {
    const throttle = createSignInThrottle(database.pool);
    const waits: number[] = [];
    for (let i = 0; i < FREE_FAILURES + 3; i += 1) {
      waits.push(await throttle.retryAfterSeconds("192.0.2.1", OWNER));
      await throttle.recordFailure("192.0.2.1", OWNER);
    }
    waits.push(await throttle.retryAfterSeconds("192.0.2.1", OWNER));
    expect(waits.slice(0, FREE_FAILURES)).toEqual(Array(FREE_FAILURES).fill(0));
    const blocked = waits.slice(FREE_FAILURES);
    // 30 s, 60 s, 120 s, 240 s (give or take the second the test takes).
    for (let i = 1; i < blocked.length; i += 1) {
      expect(blocked[i]).toBeGreaterThan((blocked[i - 1] ?? 0) * 1.5);
    }
    expect(blocked[0]).toBeGreaterThan(20);
    expect(blocked.at(-1)).toBeLessThanOrEqual(15 * 60);
  });

  it("is shared by two console processes on the same database", async () => {
    // Two real processes record failures at the same time; each alone stays under the limit.
    const perProcess = Math.ceil((FREE_FAILURES + 1) / 2);
    await Promise.all([recordFailuresInAProcess(perProcess), recordFailuresInAProcess(perProcess)]);
    const { rows } = await database.pool.query<{ failures: number }>(
      `SELECT failures FROM cyclium_sign_in_attempts WHERE address = '192.0.2.9'`,
    );
    expect(rows).toEqual([{ failures: 2 * perProcess }]);
    // This process refuses the right password because of what the other two counted.
    const refused = await attempt("192.0.2.9", TEST_PASSWORD);
    expect(refused).toMatchObject({ kind: "rate_limited" });
    // And a pool of its own (what a third console holds) sees the same wait.
    expect(
      await createSignInThrottle(otherProcessPool).retryAfterSeconds("192.0.2.9", OWNER),
    ).toBeGreaterThan(0);
  });

  it("forgets a pair after a successful sign-in", async () => {
    const throttle = createSignInThrottle(database.pool);
    for (let i = 0; i < FREE_FAILURES - 1; i += 1) await throttle.recordFailure("192.0.2.3", OWNER);
    expect((await attempt("192.0.2.3", TEST_PASSWORD)).kind).toBe("signed_in");
    const { rows } = await database.pool.query(`SELECT 1 FROM cyclium_sign_in_attempts`);
    expect(rows).toEqual([]);
  });

  it("caps password spraying from one address across accounts", async () => {
    const throttle = createSignInThrottle(database.pool);
    for (let i = 0; i < 100; i += 1) await throttle.recordFailure("192.0.2.4", `u${i}@test.local`);
    expect(await throttle.retryAfterSeconds("192.0.2.4", "fresh@test.local")).toBeGreaterThan(0);
    expect(await throttle.retryAfterSeconds("192.0.2.5", "fresh@test.local")).toBe(0);
  });
});
