import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireClaim } from "./acquire-claim";
import { renewClaim } from "./renew-claim";
import { renewClaims } from "./renew-claims";

// Issue 15 item 3: a lease renewal changes lease_until only, which no index of
// cyclium_work_claims carries, and the table keeps free room on its pages (fillfactor 80), so
// PostgreSQL updates the row in place (HOT): no index entry, no new page per renewal. Counted
// with the transaction's own statistics, which are exact and not subject to the stats delay.

let db: TestDatabase;
let client: pg.PoolClient;

beforeAll(async () => {
  db = await createTestDatabase();
  client = await db.pool.connect();
});
afterAll(async () => {
  client?.release();
  await db?.drop();
});

async function counts(): Promise<{ updated: number; hot: number }> {
  const { rows } = await client.query<{ updated: string; hot: string }>(
    `SELECT pg_stat_get_xact_tuples_updated('cyclium_work_claims'::regclass) AS updated,
            pg_stat_get_xact_tuples_hot_updated('cyclium_work_claims'::regclass) AS hot`,
  );
  return { updated: Number(rows[0]!.updated), hot: Number(rows[0]!.hot) };
}

/** Row updates of cyclium_work_claims that `work` made, and how many of them were HOT. */
async function updatesIn(work: () => Promise<unknown>): Promise<{ updated: number; hot: number }> {
  await client.query("BEGIN");
  try {
    const before = await counts();
    await work();
    const after = await counts();
    return { updated: after.updated - before.updated, hot: after.hot - before.hot };
  } finally {
    await client.query("ROLLBACK");
  }
}

describe("lease renewal", () => {
  it("is a HOT update, one claim at a time and for a node's claims in one statement", async () => {
    const keys = Array.from({ length: 40 }, (_, n) => `renew-hot:${n}`);
    for (const dedupeKey of keys) {
      const acquired = await acquireClaim({ dedupeKey, owner: "n1", leaseSeconds: 30 }, db.pool);
      expect(acquired).toMatchObject({ attempt: 1, stolen: false });
    }

    const single = await updatesIn(() =>
      renewClaim({ dedupeKey: keys[0]!, owner: "n1", leaseSeconds: 30, attempt: 1 }, client),
    );
    expect(single).toEqual({ updated: 1, hot: 1 });

    const batch = await updatesIn(async () => {
      const renewed = await renewClaims(
        {
          owner: "n1",
          leaseSeconds: 30,
          claims: keys.map((dedupeKey) => ({ dedupeKey, attempt: 1 })),
        },
        client,
      );
      expect(renewed).toHaveLength(keys.length);
    });
    expect(batch).toEqual({ updated: keys.length, hot: keys.length });
  });
});
