import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { claimTriggerRequests } from "./claim-trigger-requests";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

/** `count` pending requests of `actorId` in one statement: they share one inserted_at. */
async function backlog(actorId: string, count: number): Promise<string[]> {
  const { rows } = await db.pool.query<{ id: string }>(
    `WITH e AS (
       INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
       SELECT $1, 'run', 'pending', 'manual' FROM generate_series(1, $2)
       RETURNING id)
     INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
     SELECT id, $1, 'run', 'pending' FROM e
     RETURNING id::text`,
    [actorId, count],
  );
  return rows.map((row) => row.id).sort((a, b) => Number(a) - Number(b));
}

it("claims from a large backlog written in one transaction by index, oldest id first", async () => {
  const ids = await backlog("a", 5_000);
  await backlog("b", 1_000);
  await db.pool.query("ANALYZE cyclium_trigger_requests");
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    const claimed = await claimTriggerRequests(
      { node: "n1", limits: [{ actorId: "a", limit: 24 }], sourceStack: null, sourceEnv: null },
      client,
    );
    // This transaction's own scans: reading and sorting every pending request per claim made
    // draining a backlog quadratic (43 ms per claim of 24 with 20,000 pending).
    const { rows } = await client.query<{ seq_scan: string }>(
      `SELECT seq_scan::text FROM pg_stat_xact_user_tables WHERE relname = 'cyclium_trigger_requests'`,
    );
    await client.query("COMMIT");
    expect(claimed.map((request) => request.id)).toEqual(ids.slice(0, 24));
    expect(rows[0]?.seq_scan).toBe("0");
  } finally {
    client.release();
  }
  const next = await claimTriggerRequests(
    { node: "n2", limits: [{ actorId: "a", limit: 3 }], sourceStack: null, sourceEnv: null },
    db.pool,
  );
  expect(next.map((request) => request.id)).toEqual(ids.slice(24, 27));
});
