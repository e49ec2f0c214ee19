import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spyQueryable } from "../db/testing/index";
import { isCycliumError } from "../errors/index";
import { Telemetry, type TelemetryEvent } from "../telemetry/index";
import { LeaseKeeper } from "./lease-keeper";
import { PostgresWorkClaims } from "./postgres-work-claims";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const isRenew = (text: string): boolean => text.includes("SET lease_until = now()");

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

async function leaseUntil(dedupeKey: string): Promise<Date> {
  const { rows } = await db.pool.query<{ lease_until: Date }>(
    "SELECT lease_until FROM cyclium_work_claims WHERE dedupe_key = $1",
    [dedupeKey],
  );
  if (!rows[0]) throw new Error(`no claim ${dedupeKey}`);
  return rows[0].lease_until;
}

describe("LeaseKeeper against PostgreSQL", () => {
  it("renews all of a node's claims with one statement per tick; a lost claim aborts only its work, and its writes are fenced", async () => {
    const spy = spyQueryable(db.pool);
    const telemetry = new Telemetry();
    const failed: TelemetryEvent[] = [];
    telemetry.subscribe((event) => failed.push(event), {
      events: ["cyclium.work_claims.renew_failed"],
    });
    const claims = new PostgresWorkClaims({ db: spy, telemetry });
    const thief = new PostgresWorkClaims({ db: db.pool, telemetry: new Telemetry() });
    const owner = "keeper-node";
    // Ticks every second; a lease of 3 s leaves room for a loaded machine.
    const leaseSeconds = 3;
    const keys = Array.from({ length: 12 }, (_, i) => `keeper:batch:${i}`);
    const keeper = new LeaseKeeper({ claims, owner, leaseSeconds });

    const held = [];
    for (const dedupeKey of keys) {
      const leaseStartedAt = performance.now();
      const acquired = await claims.acquire({ dedupeKey, owner, leaseSeconds });
      if (!acquired.ok) throw new Error("acquire failed");
      held.push({
        dedupeKey,
        attempt: acquired.attempt,
        heartbeat: keeper.hold({ dedupeKey, attempt: acquired.attempt, leaseStartedAt }),
      });
    }
    const before = await Promise.all(keys.map(leaseUntil));
    spy.calls.length = 0;

    await until(() => spy.calls.some((call) => isRenew(call.text)));
    // Let the statement be answered (the spy records it when sent).
    await until(async () => (await leaseUntil(keys[0]!)) > before[0]!);
    const renewals = spy.calls.filter((call) => isRenew(call.text));
    expect(renewals).toHaveLength(1);
    expect(renewals[0]?.params?.[2]).toEqual(keys);
    const after = await Promise.all(keys.map(leaseUntil));
    after.forEach((at, i) => expect(at.getTime()).toBeGreaterThan(before[i]!.getTime()));

    // Another node takes one claim over (its lease made to run out first, as if this node had
    // stalled): at the next tick exactly that claim's work is aborted.
    // One transaction, so that no renewal lands between the lapse and the take-over.
    const victim = held[5]!;
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(
        "UPDATE cyclium_work_claims SET lease_until = now() - interval '1 second' WHERE dedupe_key = $1",
        [victim.dedupeKey],
      );
      const stolen = await thief.acquire(
        { dedupeKey: victim.dedupeKey, owner: "thief", leaseSeconds: 60 },
        client,
      );
      expect(stolen).toMatchObject({ ok: true, attempt: 2, stolen: true });
      await client.query("COMMIT");
    } finally {
      client.release();
    }

    expect(await victim.heartbeat.ended).toBe("lease_lost");
    expect(isCycliumError(victim.heartbeat.signal.reason, "lease_lost")).toBe(true);
    for (const other of held) {
      if (other !== victim) expect(other.heartbeat.signal.aborted).toBe(false);
    }
    expect(keeper.size).toBe(keys.length - 1);
    expect(failed.map((event) => event.metadata.dedupe_key)).toEqual([victim.dedupeKey]);

    // Fencing is unchanged: the zombie holds nothing and cannot release the thief's claim.
    const zombie = { dedupeKey: victim.dedupeKey, owner, attempt: victim.attempt };
    expect(await claims.holds(zombie)).toBe(false);
    expect(await claims.complete(zombie)).toEqual({ ok: false, error: "not_owner" });
    expect(await thief.holds({ dedupeKey: victim.dedupeKey, owner: "thief", attempt: 2 })).toBe(
      true,
    );

    // The others go on being renewed together, still one statement per tick.
    spy.calls.length = 0;
    await until(() => spy.calls.filter((call) => isRenew(call.text)).length >= 2);
    const later = spy.calls.filter((call) => isRenew(call.text));
    for (const call of later) {
      expect(call.params?.[2]).toEqual(keys.filter((key) => key !== victim.dedupeKey));
    }

    for (const claim of held) await claim.heartbeat.stopAndSettle();
    expect(keeper.size).toBe(0);
    for (const claim of held) {
      if (claim !== victim) expect(claim.heartbeat.signal.aborted).toBe(false);
    }
  }, 60_000);

  it("aborts every claim's work by its own reckoning when the database is unreachable, before another node can steal them", async () => {
    const spy = spyQueryable(db.pool);
    const claims = new PostgresWorkClaims({ db: spy, telemetry: new Telemetry() });
    const thief = new PostgresWorkClaims({ db: db.pool, telemetry: new Telemetry() });
    const owner = "keeper-down";
    const leaseSeconds = 2;
    const keeper = new LeaseKeeper({ claims, owner, leaseSeconds });
    const held = [];
    for (const dedupeKey of ["keeper:down:a", "keeper:down:b", "keeper:down:c"]) {
      const leaseStartedAt = performance.now();
      expect((await claims.acquire({ dedupeKey, owner, leaseSeconds })).ok).toBe(true);
      const heartbeat = keeper.hold({ dedupeKey, attempt: 1, leaseStartedAt });
      let abortedAt = Number.POSITIVE_INFINITY;
      heartbeat.signal.addEventListener("abort", () => (abortedAt = performance.now()));
      held.push({ dedupeKey, heartbeat, abortedAt: () => abortedAt });
    }
    spy.setBroken(true);

    const first = held[0]!;
    let stolenAt = Number.POSITIVE_INFINITY;
    const brokenAt = performance.now();
    while (performance.now() - brokenAt < 10_000) {
      const result = await thief.acquire({
        dedupeKey: first.dedupeKey,
        owner: "thief",
        leaseSeconds: 30,
      });
      if (result.ok) {
        stolenAt = performance.now();
        break;
      }
      await sleep(20);
    }
    for (const claim of held) {
      expect(await claim.heartbeat.ended).toBe("lease_lapsed");
      expect(isCycliumError(claim.heartbeat.signal.reason, "lease_lapsed")).toBe(true);
    }
    expect(first.abortedAt()).toBeLessThan(stolenAt);
    expect(keeper.size).toBe(0);
  }, 30_000);
});
