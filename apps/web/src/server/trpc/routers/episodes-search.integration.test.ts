import { performance } from "node:perf_hooks";
import { BUS_CHANNEL } from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditRows,
  seedTestUsers,
  testContext,
  type TTestUsers,
} from "../../auth/testing/auth-test-kit";
import { createCaller } from "../root-router";

let database: TestDatabase;
let users: TTestUsers;
let ids: string[];

/**
 * `count` episodes in one statement (generate_series), a second apart from `at`, i from 1.
 * `status`, `input` and `dedupe_key` are SQL expressions over i.
 */
async function seedEpisodes(options: {
  count: number;
  env: string | null;
  status: string;
  actor?: string;
  input?: string;
  dedupeKey?: string;
}): Promise<void> {
  await database.pool.query(
    `INSERT INTO cyclium_episodes
       (actor_id, expectation_id, status, trigger_type, source_env, input, dedupe_key,
        inserted_at, finished_at, error_class)
     SELECT $1, 'check', ${options.status}, 'event', $2::text, ${options.input ?? "'{}'::jsonb"},
            ${options.dedupeKey ?? "NULL"},
            timestamp '2026-11-01 12:00:00+00' + make_interval(secs => i), now(), 'boom'
       FROM generate_series(1, $3::int) AS i`,
    [options.actor ?? "alpha", options.env, options.count],
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  // The unset env: 30 episodes, actors alpha/beta, every third failed, inputs with an order
  // number (a string), a region and a count (a number), dedupe keys `order:<i>`.
  await seedEpisodes({
    count: 30,
    env: null,
    status: "CASE WHEN i % 3 = 0 THEN 'failed' ELSE 'completed' END",
    input: `jsonb_build_object('order', 'A-' || i, 'count', i,
              'customer', jsonb_build_object('region', CASE WHEN i % 2 = 0 THEN 'eu' ELSE 'us' END))`,
    dedupeKey: "'order:' || i",
  });
  await seedEpisodes({ count: 4, env: null, status: "'running'", actor: "beta" });
  const { rows } = await database.pool.query<{ id: string }>(
    "SELECT id FROM cyclium_episodes ORDER BY id",
  );
  ids = rows.map((row) => row.id);
});

afterAll(async () => {
  await database?.drop();
});

const viewer = () => createCaller(testContext(database.pool, users.viewer));
const operator = () => createCaller(testContext(database.pool, users.operator));
const listed = async (q: string) =>
  (await viewer().episodes.list({ q, limit: 200 })).items.map((item) => item.id);

describe("episodes.list with a search", () => {
  it("narrows by each qualifier", async () => {
    expect(await listed("status:failed")).toHaveLength(10);
    expect(await listed("actor:beta")).toHaveLength(4);
    expect(await listed("actor:beta status:running expectation:check trigger:event")).toHaveLength(
      4,
    );
    // A value runs to the next space, colons and all.
    expect(await listed("key:order:7")).toHaveLength(1);
    expect(await listed('key:"order:7"')).toEqual(await listed("key:order:7"));
    expect(await listed('"order:7"')).toEqual(await listed('key:"order:7"'));
    expect(await listed("env:staging")).toEqual([]);
    expect(await listed("env:default status:failed")).toHaveLength(10);
  });

  it("finds episodes by a value in their input, as a string or the number it spells", async () => {
    expect(await listed("input.order:A-12")).toHaveLength(1);
    expect(await listed("input.count:12")).toEqual(await listed("input.order:A-12"));
    expect(await listed("input.customer.region:eu")).toHaveLength(15);
    expect(await listed("input.customer.region:eu status:failed")).toHaveLength(5);
    expect(await listed("input.customer.region:mars")).toEqual([]);
  });

  it("finds running episodes by their input, which the input index leaves out", async () => {
    await seedEpisodes({
      count: 3,
      env: null,
      status: "CASE WHEN i = 1 THEN 'completed' ELSE 'running' END",
      actor: "gamma",
      input: "jsonb_build_object('order', 'R-7', 'count', 700 + i)",
    });
    try {
      expect(await listed("input.order:R-7")).toHaveLength(3);
      expect(await listed("input.order:R-7 status:running")).toHaveLength(2);
      expect(await listed("input.count:702")).toHaveLength(1);
      expect(await viewer().episodes.count({ q: "input.order:R-7" })).toMatchObject({ count: 3 });
    } finally {
      await database.pool.query("DELETE FROM cyclium_episodes WHERE actor_id = 'gamma'");
    }
  });

  it("finds an episode by its id or a prefix of it", async () => {
    const id = ids[7] ?? "";
    expect(await listed(`id:${id}`)).toEqual([id]);
    expect(await listed(id.toUpperCase())).toEqual([id]);
    const prefix = id.slice(0, 6);
    const expected = ids.filter((candidate) => candidate.startsWith(prefix));
    expect((await listed(prefix)).sort()).toEqual(expected.sort());
  });

  it("answers 400 with a readable message for a search it cannot read", async () => {
    const unknown = viewer().episodes.list({ q: "stauts:failed" });
    await expect(unknown).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(unknown).rejects.toThrow(/^Unknown qualifier stauts:\. Known: actor: /);
    await expect(viewer().episodes.count({ q: "status:lost" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(
      viewer().episodes.list({ q: "status:failed", status: "completed" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "The search says failed but the Status filter says completed.",
    });
    await expect(viewer().episodes.list({ q: "x".repeat(1_001) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});

describe("episodes.count", () => {
  it("is exact for a small filter, with the same filter as the list", async () => {
    expect(await viewer().episodes.count({ q: "input.customer.region:eu" })).toEqual({
      kind: "exact",
      count: 15,
    });
    expect(await viewer().episodes.count({})).toEqual({ kind: "exact", count: 34 });
  });
});

describe("bulk commands over a search", () => {
  it("retries 10,000 matching failed episodes in batches, with one audit row and per-item outcomes", async () => {
    await seedEpisodes({ count: 10_000, env: "bulk", status: "'failed'" });
    await seedEpisodes({ count: 20, env: "bulk", status: "'completed'" });

    // Past 10,000 the total is the planner's estimate, labelled so.
    const total = await viewer().episodes.count({ q: "env:bulk" });
    expect(total).toMatchObject({ kind: "estimated", exactUpTo: 10_000 });
    expect(total.count).toBeGreaterThan(10_000);
    expect(await viewer().episodes.count({ q: "env:bulk status:completed" })).toEqual({
      kind: "exact",
      count: 20,
    });
    // Only failed and cancelled episodes can be retried: the completed ones are not counted.
    expect(await viewer().episodes.bulkPreview({ q: "env:bulk", command: "retry" })).toEqual({
      kind: "exact",
      count: 10_000,
    });
    await expect(viewer().episodes.bulkRetry({ q: "env:bulk" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });

    const started = performance.now();
    const outcome = await operator().episodes.bulkRetry({ q: "env:bulk" });
    const seconds = (performance.now() - started) / 1000;
    console.log(`bulk retry of 10,000 failed episodes: ${seconds.toFixed(2)} s`);
    expect(outcome).toEqual({
      kind: "done",
      command: "retry",
      matched: 10_000,
      changed: 10_000,
      conflict: 0,
      notFound: 0,
      batches: 21, // 20 of failed episodes, 1 (empty) of cancelled ones
    });

    const { rows } = await database.pool.query<{ status: string; attempt: number; n: number }>(
      `SELECT status, attempt, count(*)::int AS n FROM cyclium_episodes
        WHERE source_env = 'bulk' GROUP BY status, attempt ORDER BY status`,
    );
    expect(rows).toEqual([
      { status: "completed", attempt: 1, n: 20 },
      { status: "pending", attempt: 2, n: 10_000 },
    ]);
    const requests = await database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_trigger_requests
        WHERE source_env = 'bulk' AND status = 'pending'`,
    );
    expect(requests.rows[0]?.n).toBe(10_000);
    const [audit, ...more] = await auditRows(database.pool, "episodes.bulk_retry");
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ outcome: "ok", target: "env:bulk" });
    expect(audit?.principal).toContain("operator");
    expect(audit?.detail).toMatchObject({ query: { q: "env:bulk" }, outcome });
    // Nothing left to retry; a second run changes nothing and is audited too.
    expect(await operator().episodes.bulkRetry({ q: "env:bulk" })).toMatchObject({
      matched: 0,
      changed: 0,
    });
    expect(await auditRows(database.pool, "episodes.bulk_retry")).toHaveLength(2);
  }, 300_000);

  it("cancels the running and archives the finished episodes a search matches", async () => {
    expect(await viewer().episodes.bulkPreview({ q: "actor:beta", command: "cancel" })).toEqual({
      kind: "exact",
      count: 4,
    });
    // Each cancelled episode is announced on the cluster bus, as a single cancel is.
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    const cancelled: string[] = [];
    listener.on("notification", (n) => {
      const event = JSON.parse(n.payload ?? "{}") as { topic?: string; payload?: unknown };
      if (event.topic === "episode.cancelled") {
        cancelled.push((event.payload as { episodeId: string }).episodeId);
      }
    });
    await listener.query(`LISTEN ${BUS_CHANNEL}`);
    try {
      expect(await operator().episodes.bulkCancel({ q: "actor:beta" })).toMatchObject({
        command: "cancel",
        matched: 4,
        changed: 4,
      });
      const beta = await listed("actor:beta");
      await expect.poll(() => [...cancelled].sort(), { timeout: 5_000 }).toEqual(beta.sort());
    } finally {
      await listener.end();
    }
    expect(await listed("actor:beta status:cancelled")).toHaveLength(4);
    // Running episodes cannot be archived: nothing matches.
    expect(await operator().episodes.bulkArchive({ q: "actor:beta status:running" })).toMatchObject(
      { matched: 0 },
    );
    expect(await operator().episodes.bulkArchive({ q: "input.customer.region:us" })).toMatchObject({
      matched: 15,
      changed: 15,
    });
    expect(await listed("input.customer.region:us")).toEqual([]);
    expect(
      (await viewer().episodes.list({ q: "input.customer.region:us", archived: true, limit: 50 }))
        .items,
    ).toHaveLength(15);
    expect(await auditRows(database.pool, "episodes.bulk_cancel")).toHaveLength(1);
    expect(await auditRows(database.pool, "episodes.bulk_archive")).toHaveLength(2);
  });
});
