import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger, Telemetry, type TelemetryEvent } from "../telemetry/index";
import { PassthroughWorkClaims } from "./passthrough-work-claims";
import { PostgresWorkClaims } from "./postgres-work-claims";
import { CLAIMS_EXPIRY_CLAIM_KEY, sweepExpiredClaims } from "./sweep-expired-claims";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

async function stateOf(key: string): Promise<string | undefined> {
  const { rows } = await db.pool.query<{ state: string }>(
    "SELECT state FROM cyclium_work_claims WHERE dedupe_key = $1",
    [key],
  );
  return rows[0]?.state;
}

describe("sweepExpiredClaims", () => {
  it("expires at most batchSize x maxBatches per run, counts them, and skips while busy", async () => {
    const claims = new PostgresWorkClaims({ db: db.pool });
    const telemetry = new Telemetry();
    const events: TelemetryEvent[] = [];
    telemetry.subscribe((event) => events.push(event), {
      events: ["cyclium.work_claims.expired"],
    });
    const lapsed = ["l1", "l2", "l3", "l4", "l5"].map((k) => `sweep:${k}`);
    for (const dedupeKey of lapsed) {
      await claims.acquire({ dedupeKey, owner: "gone", leaseSeconds: 0.2 });
    }
    await claims.acquire({ dedupeKey: "sweep:live", owner: "alive", leaseSeconds: 60 });
    // The database clock passes the 0.2 s lease: the next statement starts after this reply.
    await sleep(400);
    const sweep = (owner: string) =>
      sweepExpiredClaims({
        claims,
        owner,
        leaseSeconds: 10,
        batchSize: 2,
        maxBatches: 2,
        logger: silentLogger,
        telemetry,
      });

    // Another node is sweeping: this one does nothing.
    const other = await claims.acquire({
      dedupeKey: CLAIMS_EXPIRY_CLAIM_KEY,
      owner: "node-b",
      leaseSeconds: 60,
    });
    expect(await sweep("node-a")).toEqual({ kind: "busy" });
    expect(await stateOf("sweep:l1")).toBe("claimed");
    if (other.ok) await claims.complete({ dedupeKey: CLAIMS_EXPIRY_CLAIM_KEY, owner: "node-b" });

    const first = await sweep("node-a");
    expect(first.kind === "swept" && first.expiredKeys).toHaveLength(4);
    const second = await sweep("node-a");
    expect(second.kind === "swept" && second.expiredKeys).toHaveLength(1);
    for (const key of lapsed) expect(await stateOf(key)).toBe("expired");
    expect(await stateOf("sweep:live")).toBe("claimed");
    expect(events.map((event) => event.measurements.count)).toEqual([4, 1]);
    expect(events[0]?.metadata).toMatchObject({ owner_node: "node-a" });
    // The sweep released its own claim: the next node's turn is a fresh acquire.
    expect(await stateOf(CLAIMS_EXPIRY_CLAIM_KEY)).toBe("done");
  });

  it("does nothing with claims off", async () => {
    const result = await sweepExpiredClaims({
      claims: new PassthroughWorkClaims(),
      owner: "n",
      leaseSeconds: 10,
      logger: silentLogger,
      telemetry: new Telemetry(),
    });
    expect(result).toEqual({ kind: "off" });
  });
});
