import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spyQueryable } from "../db/testing/index";
import { createRollupWriter } from "./rollup-writer";
import { Telemetry } from "./telemetry";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

async function rollups(node: string) {
  const { rows } = await db.pool.query<{
    bucket: Date;
    event: string;
    count: string;
    sum_ms: number;
    max_ms: number;
  }>(
    "SELECT bucket, event, count, sum_ms, max_ms FROM cyclium_telemetry WHERE node = $1 ORDER BY bucket, event",
    [node],
  );
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

function perEvent(rows: Awaited<ReturnType<typeof rollups>>) {
  const totals: Record<string, { count: number; sum_ms: number; max_ms: number }> = {};
  for (const row of rows) {
    const total = (totals[row.event] ??= { count: 0, sum_ms: 0, max_ms: 0 });
    total.count += row.count;
    total.sum_ms += row.sum_ms;
    total.max_ms = Math.max(total.max_ms, row.max_ms);
  }
  return totals;
}

describe("createRollupWriter", () => {
  it("aggregates per minute and event, writing each batch in one statement", async () => {
    const telemetry = new Telemetry();
    const spy = spyQueryable(db.pool);
    const writer = createRollupWriter({ telemetry, db: spy, node: "w1", flushIntervalMs: 60_000 });
    for (const ms of [2, 8, 5]) {
      telemetry.emit("cyclium.work_claims.acquired", { count: 1, duration_ms: ms });
    }
    telemetry.emit("cyclium.work_claims.busy", { count: 3 });
    await writer.flush();
    expect(spy.calls).toHaveLength(1);

    // A later flush in the same minute adds to the stored row.
    telemetry.emit("cyclium.work_claims.acquired", { count: 1, duration_ms: 20 });
    await writer.stop();
    expect(spy.calls).toHaveLength(2);

    // Summed per event, so the test holds even if it straddles a minute boundary.
    const stored = await rollups("w1");
    expect(perEvent(stored)).toEqual({
      "cyclium.work_claims.acquired": { count: 4, sum_ms: 35, max_ms: 20 },
      "cyclium.work_claims.busy": { count: 3, sum_ms: 0, max_ms: 0 },
    });
    for (const row of stored) {
      expect(row.bucket.getUTCSeconds()).toBe(0);
      expect(row.bucket.getUTCMilliseconds()).toBe(0);
    }
  });

  it("keeps the numbers when a write fails and writes them on the next flush", async () => {
    const telemetry = new Telemetry();
    const spy = spyQueryable(db.pool);
    const writer = createRollupWriter({ telemetry, db: spy, node: "w2", flushIntervalMs: 60_000 });
    telemetry.emit("cyclium.episode.completed", { count: 1, duration_ms: 100 });
    spy.setBroken(true);
    await writer.flush();
    telemetry.emit("cyclium.episode.completed", { count: 1, duration_ms: 300 });
    spy.setBroken(false);
    await writer.stop();
    expect(perEvent(await rollups("w2"))).toEqual({
      "cyclium.episode.completed": { count: 2, sum_ms: 400, max_ms: 300 },
    });
  });

  it("writes nothing when nothing happened", async () => {
    const spy = spyQueryable(db.pool);
    const writer = createRollupWriter({ telemetry: new Telemetry(), db: spy, node: "w3" });
    await writer.stop();
    expect(spy.calls).toHaveLength(0);
  });
});
