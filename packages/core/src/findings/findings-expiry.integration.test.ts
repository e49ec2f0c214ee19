import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnTestProcess, type TestProcess } from "../recovery/testing/index";
import { raiseFinding } from "./raise-finding";

// SPEC 12 acceptance: three real processes sweeping; a 2-second finding is cleared exactly once.
const SWEEPER = fileURLToPath(new URL("./testing/expiry-sweeper-process.ts", import.meta.url));

let db: TestDatabase;
const processes: TestProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill("SIGKILL")));
  await db.drop();
});

describe("findings expiry sweep", () => {
  it("clears a finding with a 2-second TTL exactly once with three nodes sweeping", async () => {
    const sweepers = ["a", "b", "c"].map((name) =>
      spawnTestProcess(SWEEPER, { DATABASE_URL: db.url, NODE_ID: `sweeper-${name}` }),
    );
    processes.push(...sweepers);
    await Promise.all(sweepers.map((s) => s.waitFor((line) => line.event === "ready")));

    const { finding } = await raiseFinding(
      { findingKey: "limit_breach:cpu:web-1", class: "limit_breach", ttlSeconds: 2 },
      db.pool,
    );
    expect(finding.expiresAt).not.toBeNull();
    const clearedBy = () =>
      sweepers.flatMap((s) =>
        s.lines.filter((l) => Array.isArray(l.cleared) && l.cleared.includes(finding.id)),
      );
    await vi.waitFor(() => expect(clearedBy().length).toBeGreaterThan(0), {
      timeout: 20_000,
      interval: 50,
    });
    // Every node sweeps at least twice more after the clear: still cleared only once.
    const after = sweepers.map((s) => s.lines.length);
    await vi.waitFor(
      () => sweepers.forEach((s, i) => expect(s.lines.length).toBeGreaterThan((after[i] ?? 0) + 2)),
      { timeout: 20_000, interval: 50 },
    );
    expect(clearedBy()).toHaveLength(1);
    // One row, cleared, and not before its time (database clock on both sides).
    const { rows } = await db.pool.query<{ status: string; on_time: boolean }>(
      `SELECT status, cleared_at >= expires_at AS on_time FROM cyclium_findings
        WHERE finding_key = $1`,
      ["limit_breach:cpu:web-1"],
    );
    expect(rows).toEqual([{ status: "cleared", on_time: true }]);
    // The sweeps took turns under the one claim (each turn a fresh acquire of the done claim).
    const { rows: claim } = await db.pool.query<{ attempt: number }>(
      `SELECT attempt FROM cyclium_work_claims WHERE dedupe_key = 'findings:expiry_sweep'`,
    );
    expect(claim[0]?.attempt).toBeGreaterThan(3);
    await Promise.all(sweepers.map((s) => s.kill("SIGTERM")));
  });
});
