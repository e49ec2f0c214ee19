import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openClients } from "../db/testing/index";
import { isCycliumError } from "../errors/index";
import { Telemetry, type TelemetryEvent } from "../telemetry/index";
import { PostgresWorkClaims } from "./postgres-work-claims";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

afterEach(() => {
  vi.useRealTimers();
});

function recorder(telemetry: Telemetry): TelemetryEvent[] {
  const events: TelemetryEvent[] = [];
  telemetry.subscribe((event) => events.push(event));
  return events;
}

function countOf(events: TelemetryEvent[], name: TelemetryEvent["name"]): number {
  return events.filter((event) => event.name === name).length;
}

async function claimRow(key: string) {
  const { rows } = await db.pool.query<{
    state: string;
    owner_node: string;
    attempt: number;
    steals: number;
    error_detail: string | null;
  }>(
    "SELECT state, owner_node, attempt, steals, error_detail FROM cyclium_work_claims WHERE dedupe_key = $1",
    [key],
  );
  return rows[0];
}

describe("PostgresWorkClaims", () => {
  it("lets exactly one of 50 concurrent acquirers win, the rest are busy", async () => {
    const telemetry = new Telemetry();
    const events = recorder(telemetry);
    const { clients, close } = await openClients(db.url, 50);
    try {
      const results = await Promise.all(
        clients.map((client, i) =>
          new PostgresWorkClaims({ db: client, telemetry }).acquire({
            dedupeKey: "event:monitor:check:race",
            owner: `node-${i}`,
            leaseSeconds: 60,
          }),
        ),
      );
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.error === "busy")).toHaveLength(49);
      expect(winners[0]).toMatchObject({ ok: true, attempt: 1, stolen: false });
      expect(countOf(events, "cyclium.work_claims.acquired")).toBe(1);
      expect(countOf(events, "cyclium.work_claims.busy")).toBe(49);
      expect(countOf(events, "cyclium.work_claims.steal")).toBe(0);
      const busy = events.find((e) => e.name === "cyclium.work_claims.busy");
      expect(busy?.metadata).toMatchObject({ dedupe_key: "event:monitor:check:race" });
      expect(busy?.measurements.duration_ms).toBeGreaterThanOrEqual(0);
      expect((await claimRow("event:monitor:check:race"))?.state).toBe("claimed");
    } finally {
      await close();
    }
  });

  it("after complete, a new acquire succeeds as a fresh take-over, not a steal", async () => {
    const telemetry = new Telemetry();
    const events = recorder(telemetry);
    const claims = new PostgresWorkClaims({ db: db.pool, telemetry });
    const key = "schedule:monitor:daily:2026-11-29T09:00Z";
    const first = await claims.acquire({ dedupeKey: key, owner: "a", leaseSeconds: 60 });
    expect(first).toMatchObject({ ok: true, attempt: 1 });
    expect(await claims.acquire({ dedupeKey: key, owner: "b", leaseSeconds: 60 })).toEqual({
      ok: false,
      error: "busy",
    });
    expect(await claims.complete({ dedupeKey: key, owner: "a", attempt: 1 })).toEqual({ ok: true });
    expect((await claimRow(key))?.state).toBe("done");

    const again = await claims.acquire({ dedupeKey: key, owner: "b", leaseSeconds: 60 });
    expect(again).toEqual({
      ok: true,
      attempt: 2,
      stolen: false,
      fence: { dedupeKey: key, owner: "b", attempt: 2 },
    });
    expect(countOf(events, "cyclium.work_claims.steal")).toBe(0);
    expect(countOf(events, "cyclium.work_claims.acquired")).toBe(2);
    expect(countOf(events, "cyclium.work_claims.completed")).toBe(1);
    expect(await claimRow(key)).toMatchObject({ state: "claimed", owner_node: "b", steals: 0 });
  });

  it("lets another owner steal a lapsed 1-second lease, with attempt 2 and a steal event", async () => {
    const telemetry = new Telemetry();
    const events = recorder(telemetry);
    const claims = new PostgresWorkClaims({ db: db.pool, telemetry });
    const key = "event:monitor:check:steal";
    expect(await claims.acquire({ dedupeKey: key, owner: "a", leaseSeconds: 1 })).toMatchObject({
      ok: true,
      attempt: 1,
    });
    expect(await claims.acquire({ dedupeKey: key, owner: "b", leaseSeconds: 1 })).toMatchObject({
      ok: false,
    });

    await sleep(1100);
    const stolen = await claims.acquire({ dedupeKey: key, owner: "b", leaseSeconds: 60 });
    expect(stolen).toMatchObject({ ok: true, attempt: 2, stolen: true });
    const steal = events.filter((e) => e.name === "cyclium.work_claims.steal");
    expect(steal).toHaveLength(1);
    expect(steal[0]?.metadata).toMatchObject({ dedupe_key: key, owner_node: "b", attempt: 2 });
    expect(await claimRow(key)).toMatchObject({ state: "claimed", owner_node: "b", steals: 1 });

    // The zombie can neither renew nor release what it lost.
    expect(await claims.renew({ dedupeKey: key, owner: "a", leaseSeconds: 60 })).toEqual({
      ok: false,
      error: "not_owner",
    });
    expect(await claims.complete({ dedupeKey: key, owner: "a", attempt: 1 })).toMatchObject({
      ok: false,
    });
    expect(
      await claims.fail({ dedupeKey: key, owner: "a", attempt: 1, errorDetail: "late" }),
    ).toMatchObject({ ok: false });
    expect(countOf(events, "cyclium.work_claims.renew_failed")).toBe(1);
    expect(await claimRow(key)).toMatchObject({ state: "claimed", owner_node: "b" });
  });

  it("fences renew and release on the attempt, even for the same owner", async () => {
    const claims = new PostgresWorkClaims({ db: db.pool, telemetry: new Telemetry() });
    const key = "event:monitor:check:same-owner";
    await claims.acquire({ dedupeKey: key, owner: "a", leaseSeconds: 1 });
    await sleep(1100);
    // The same node re-acquires (a new task of it), so the owner alone cannot tell them apart.
    expect(await claims.acquire({ dedupeKey: key, owner: "a", leaseSeconds: 60 })).toMatchObject({
      ok: true,
      attempt: 2,
      stolen: true,
    });
    expect(
      await claims.renew({ dedupeKey: key, owner: "a", leaseSeconds: 60, attempt: 1 }),
    ).toMatchObject({ ok: false });
    expect(await claims.complete({ dedupeKey: key, owner: "a", attempt: 1 })).toMatchObject({
      ok: false,
    });
    expect(
      await claims.renew({ dedupeKey: key, owner: "a", leaseSeconds: 60, attempt: 2 }),
    ).toEqual({ ok: true });
    expect(
      await claims.fail({ dedupeKey: key, owner: "a", attempt: 2, errorDetail: "boom" }),
    ).toEqual({ ok: true });
    expect(await claimRow(key)).toMatchObject({ state: "failed", error_detail: "boom" });
  });

  it("takes lease times from the database clock: a skewed node clock cannot expire a lease", async () => {
    const claims = new PostgresWorkClaims({ db: db.pool, telemetry: new Telemetry() });
    const key = "event:monitor:check:skew";
    expect(await claims.acquire({ dedupeKey: key, owner: "a", leaseSeconds: 30 })).toMatchObject({
      ok: true,
    });

    const realNow = Date.now();
    vi.useFakeTimers({ now: realNow + 10 * 60_000, toFake: ["Date"] });
    expect(Date.now() - realNow).toBeGreaterThanOrEqual(10 * 60_000);
    // This node now believes the 30-second lease ran out ten minutes ago; the database does not.
    expect(await claims.acquire({ dedupeKey: key, owner: "b", leaseSeconds: 30 })).toEqual({
      ok: false,
      error: "busy",
    });
    expect(await claims.reclaimExpired({ limit: 100 })).toEqual({ expiredKeys: [] });
    vi.useRealTimers();
    expect((await claimRow(key))?.owner_node).toBe("a");
  });

  it("reclaimExpired marks lapsed claimed rows expired; taking one over is not a steal", async () => {
    const claims = new PostgresWorkClaims({ db: db.pool, telemetry: new Telemetry() });
    await claims.acquire({ dedupeKey: "reclaim:1", owner: "a", leaseSeconds: 1 });
    await claims.acquire({ dedupeKey: "reclaim:2", owner: "a", leaseSeconds: 1 });
    await claims.acquire({ dedupeKey: "reclaim:live", owner: "a", leaseSeconds: 60 });
    await sleep(1100);

    const first = await claims.reclaimExpired({ limit: 1 });
    const second = await claims.reclaimExpired({ limit: 10 });
    expect([...first.expiredKeys, ...second.expiredKeys].sort()).toEqual([
      "reclaim:1",
      "reclaim:2",
    ]);
    expect(first.expiredKeys).toHaveLength(1);
    expect((await claimRow("reclaim:live"))?.state).toBe("claimed");
    expect((await claimRow("reclaim:2"))?.state).toBe("expired");

    const taken = await claims.acquire({ dedupeKey: "reclaim:1", owner: "b", leaseSeconds: 60 });
    expect(taken).toMatchObject({ ok: true, attempt: 2, stolen: false });
  });

  it("rejects keys the table cannot hold with invalid_input", async () => {
    const claims = new PostgresWorkClaims({ db: db.pool, telemetry: new Telemetry() });
    await expect(
      claims.acquire({ dedupeKey: "k".repeat(513), owner: "a", leaseSeconds: 10 }),
    ).rejects.toSatisfy((error: unknown) => isCycliumError(error, "invalid_input"));
  });
});
