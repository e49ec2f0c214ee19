import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnTestProcess, type TestProcess } from "../recovery/testing/index";
import { CLAIMS_EXPIRY_CLAIM_KEY } from "./sweep-expired-claims";

// SPEC section 4's reclaimExpired on a schedule, with real processes: a node holding claims is
// SIGKILLed, and of two nodes sweeping every 100 ms exactly one marks each lapsed claim expired.
const SWEEPER = fileURLToPath(
  new URL("./testing/claims-expiry-sweeper-process.ts", import.meta.url),
);
const HOLDER = fileURLToPath(new URL("./testing/claim-holder-process.ts", import.meta.url));
const KEYS = ["episode:held-1", "episode:held-2", "episode:held-3"];

let db: TestDatabase;
const processes: TestProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill("SIGKILL")));
  await db.drop();
});

async function states(): Promise<Record<string, string>> {
  const { rows } = await db.pool.query<{ dedupe_key: string; state: string }>(
    "SELECT dedupe_key, state FROM cyclium_work_claims WHERE dedupe_key = ANY($1)",
    [KEYS],
  );
  return Object.fromEntries(rows.map((row) => [row.dedupe_key, row.state]));
}

describe("claims expiry sweep", () => {
  it("leaves renewed claims alone and expires a killed holder's claims exactly once", async () => {
    const holder = spawnTestProcess(HOLDER, {
      DATABASE_URL: db.url,
      NODE_ID: "holder",
      LEASE_SECONDS: "1",
      CLAIM_KEYS: KEYS.join(","),
    });
    processes.push(holder);
    await holder.waitFor((line) => line.event === "ready", 20_000);
    const sweepers = ["a", "b"].map((name) =>
      spawnTestProcess(SWEEPER, { DATABASE_URL: db.url, NODE_ID: `sweeper-${name}` }),
    );
    processes.push(...sweepers);
    await Promise.all(sweepers.map((s) => s.waitFor((line) => line.event === "ready", 20_000)));

    // Both nodes sweep for over a lease (1 s) while the holder renews: nothing expires.
    const sweepsOf = (s: TestProcess) => s.lines.filter((line) => line.event === "sweep").length;
    const waitSweeps = async (count: number) => {
      const from = sweepers.map(sweepsOf);
      await vi.waitFor(
        () =>
          sweepers.forEach((s, i) => expect(sweepsOf(s)).toBeGreaterThan((from[i] ?? 0) + count)),
        { timeout: 20_000, interval: 50 },
      );
    };
    await waitSweeps(12);
    expect(await states()).toEqual(Object.fromEntries(KEYS.map((key) => [key, "claimed"])));

    await holder.kill("SIGKILL");
    await vi.waitFor(
      async () =>
        expect(await states()).toEqual(Object.fromEntries(KEYS.map((key) => [key, "expired"]))),
      { timeout: 20_000, interval: 100 },
    );
    // A few more turns each: no key is reported twice, and telemetry counted each once.
    await waitSweeps(3);
    const reported = sweepers.flatMap((s) =>
      s.lines.flatMap((line) => (Array.isArray(line.expired) ? (line.expired as string[]) : [])),
    );
    expect(reported.sort()).toEqual([...KEYS].sort());
    const counted = sweepers.map((s) => Number(s.lines.at(-1)?.counted ?? 0));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(KEYS.length);
    // The nodes took turns under the one claim (a fresh acquire of the done claim each time).
    const { rows } = await db.pool.query<{ attempt: number; state: string }>(
      "SELECT attempt, state FROM cyclium_work_claims WHERE dedupe_key = $1",
      [CLAIMS_EXPIRY_CLAIM_KEY],
    );
    expect(rows[0]?.attempt).toBeGreaterThan(5);
    await Promise.all(sweepers.map((s) => s.kill("SIGTERM")));
  });
});
