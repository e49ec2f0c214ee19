import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEpisodeDetail } from "./get-episode-detail";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

async function episode(status: string, lease: string | null, executedBy: string | null) {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, executed_by,
       attempt, started_at, finished_at, lease_until)
     VALUES ('a', 'e', $1::text, 'manual', $2, 3, now(),
       CASE WHEN $1::text IN ('completed', 'failed') THEN now() END, ${lease ?? "NULL"})
     RETURNING id::text`,
    [status, executedBy],
  );
  return rows[0]!.id;
}

describe("the episode page's claim, on the episode's own lease (SPEC section 4)", () => {
  it("shows the row's owner, attempt and lease while it runs", async () => {
    const id = await episode("running", "now() + interval '90 seconds'", "worker-1");
    const detail = await getEpisodeDetail({ db: db.pool, id });
    expect(detail?.claim).toMatchObject({
      state: "claimed",
      ownerNode: "worker-1",
      attempt: 3,
      dedupeKey: `episode:${id}`,
    });
    expect(detail?.claim?.leaseRemainingMs).toBeGreaterThan(60_000);
  });

  it("shows an ended run as done or failed, and none before a worker took it", async () => {
    const completed = await episode("completed", null, "worker-1");
    expect((await getEpisodeDetail({ db: db.pool, id: completed }))?.claim).toMatchObject({
      state: "done",
      ownerNode: "worker-1",
    });
    const failed = await episode("failed", null, "worker-2");
    expect((await getEpisodeDetail({ db: db.pool, id: failed }))?.claim?.state).toBe("failed");
    const pending = await episode("pending", null, null);
    expect((await getEpisodeDetail({ db: db.pool, id: pending }))?.claim).toBeNull();
  });
});
