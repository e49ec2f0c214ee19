import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
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

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  // 120 episodes a second apart in the unset env, alternating actors, statuses and triggers;
  // 5 in env `staging`; 2 archived.
  await database.pool.query(
    `INSERT INTO cyclium_episodes
       (actor_id, expectation_id, status, trigger_type, source_env, source_stack, inserted_at)
     SELECT CASE WHEN i % 2 = 0 THEN 'alpha' ELSE 'beta' END, 'check',
            CASE WHEN i % 3 = 0 THEN 'failed' ELSE 'completed' END,
            CASE WHEN i % 4 = 0 THEN 'manual' ELSE 'event' END,
            NULL, CASE WHEN i % 5 = 0 THEN 'blue' END,
            timestamp '2026-11-01 12:00:00+00' + make_interval(secs => i)
       FROM generate_series(1, 120) AS i`,
  );
  await database.pool.query(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, source_env)
     SELECT 'alpha', 'check', 'running', 'schedule', 'staging' FROM generate_series(1, 5)`,
  );
  await database.pool.query(
    `INSERT INTO cyclium_episodes
       (actor_id, expectation_id, status, trigger_type, archived_at)
     VALUES ('alpha', 'check', 'completed', 'event', now()),
            ('alpha', 'check', 'failed', 'event', now())`,
  );
});

afterAll(async () => {
  await database?.drop();
});

const viewer = () => createCaller(testContext(database.pool, users.viewer));
const operator = () => createCaller(testContext(database.pool, users.operator));

describe("episodes.list", () => {
  it("pages newest first through every episode of the env, exactly once", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await viewer().episodes.list({ limit: 25, cursor });
      seen.push(...page.items.map((item) => item.id));
      cursor = page.page.olderCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(120);
    const first = await viewer().episodes.list({ limit: 1 });
    expect(first.items[0]?.insertedAt).toBe("2026-11-01T12:02:00.000Z");
    expect(first.page.newerCursor).toBeNull();
  });

  it("keeps a page stable while new episodes arrive, and pages back to newer rows", async () => {
    const page1 = await viewer().episodes.list({ limit: 10 });
    const older = page1.page.olderCursor ?? undefined;
    const page2 = await viewer().episodes.list({ limit: 10, cursor: older });
    await database.pool.query(
      `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, inserted_at)
       VALUES ('alpha', 'check', 'pending', 'manual', now())`,
    );
    const again = await viewer().episodes.list({ limit: 10, cursor: older });
    expect(again.items.map((i) => i.id)).toEqual(page2.items.map((i) => i.id));
    const back = await viewer().episodes.list({
      limit: 10,
      cursor: page2.page.newerCursor ?? undefined,
      direction: "newer",
    });
    expect(back.items.map((i) => i.id)).toEqual(page1.items.map((i) => i.id));
    expect(back.page.newerCursor).not.toBeNull(); // the new episode is newer still
    await database.pool.query("DELETE FROM cyclium_episodes WHERE status = 'pending'");
  });

  it("filters by actor, status, trigger type, stack and time, combined", async () => {
    const failedAlpha = await viewer().episodes.list({ actorId: "alpha", status: "failed" });
    expect(failedAlpha.items).toHaveLength(20);
    expect(failedAlpha.items.every((i) => i.actorId === "alpha" && i.status === "failed")).toBe(
      true,
    );
    const manualBlue = await viewer().episodes.list({ triggerType: "manual", stack: "blue" });
    expect(manualBlue.items.map((i) => i.sourceStack)).toEqual(Array(6).fill("blue"));
    const window = await viewer().episodes.list({
      from: "2026-11-01T12:00:10Z",
      to: "2026-11-01T12:00:20Z",
    });
    expect(window.items).toHaveLength(10);
  });

  it("scopes to the console's env by default and reads another env strictly", async () => {
    const staging = await viewer().episodes.list({ env: "staging" });
    expect(staging.items).toHaveLength(5);
    expect(staging.items.every((i) => i.sourceEnv === "staging")).toBe(true);
    const defaultEnv = await viewer().episodes.list({ env: null, limit: 200 });
    expect(defaultEnv.items).toHaveLength(120);
    const inStagingConsole = createCaller({
      ...testContext(database.pool, users.viewer),
      node: { identity: "web-stg", mode: "trigger_only", env: "staging", stack: null },
    });
    expect((await inStagingConsole.episodes.list({})).items).toHaveLength(5);
  });

  it("hides archived episodes unless asked for them", async () => {
    const archived = await viewer().episodes.list({ archived: true });
    expect(archived.items).toHaveLength(2);
  });

  it("rejects a forged cursor", async () => {
    await expect(viewer().episodes.list({ cursor: "not-a-cursor" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});

describe("episodes.facets", () => {
  it("lists the actors and stacks of the env", async () => {
    const facets = await viewer().episodes.facets({});
    expect(facets.actors.map((a) => a.actorId)).toEqual(["alpha", "beta"]);
    expect(facets.stacks).toEqual(["blue"]);
  });
});

describe("episode actions", () => {
  async function insertEpisode(status: string, dedupeKey: string | null = null): Promise<string> {
    const { rows } = await database.pool.query<{ id: string }>(
      `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, dedupe_key)
       VALUES ('alpha', 'check', $1, 'manual', $2) RETURNING id`,
      [status, dedupeKey],
    );
    return rows[0]?.id ?? "";
  }

  it("retries a failed episode as its next attempt with a deferred trigger request", async () => {
    const id = await insertEpisode("failed");
    const result = await operator().episodes.retry({ id });
    expect(result).toEqual({ id, status: "pending", attempt: 2 });
    const detail = await viewer().episodes.detail({ id });
    expect(detail?.status).toBe("pending");
    expect(detail?.triggerRequests.map((r) => r.status)).toEqual(["pending"]);
    expect(detail?.recoveryHistory).toEqual([
      expect.objectContaining({ outcome: "retried", attempt: 2 }),
    ]);
    expect(await auditRows(database.pool, "episodes.retry")).toEqual([
      expect.objectContaining({ outcome: "ok", target: id, principal: "user:operator@test.local" }),
    ]);
  });

  it("cancels a running episode by failing its claim, so the runner's fence refuses it", async () => {
    const id = await insertEpisode("running", "manual:alpha:check:cancel-me");
    await database.pool.query(
      `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until)
       VALUES ('manual:alpha:check:cancel-me', 'claimed', 'worker-1', now() + interval '2 minutes')`,
    );
    await operator().episodes.cancel({ id });
    const detail = await viewer().episodes.detail({ id });
    expect(detail?.status).toBe("cancelled");
    expect(detail?.claim).toMatchObject({ state: "failed", ownerNode: "worker-1" });
  });

  it("refuses actions that do not fit the episode's status, with a clear message", async () => {
    const id = await insertEpisode("completed");
    await expect(operator().episodes.cancel({ id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "Only pending or running episodes can be cancelled; this one is completed.",
    });
    await operator().episodes.archive({ id });
    const archived = await viewer().episodes.detail({ id });
    expect(archived?.archivedAt).not.toBeNull();
  });

  it("is refused to a viewer, and audited", async () => {
    const id = await insertEpisode("failed");
    await expect(viewer().episodes.retry({ id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("answers not found for an unknown episode", async () => {
    const id = "00000000-0000-4000-8000-00000000abcd";
    expect(await viewer().episodes.detail({ id })).toBeNull();
    await expect(operator().episodes.archive({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("episodes.outputs", () => {
  it("lists what the episode wrote with ctx.output, oldest first, dates on the wire as ISO", async () => {
    const { rows } = await database.pool.query<{ id: string }>(
      `SELECT id FROM cyclium_episodes WHERE actor_id = 'alpha' ORDER BY inserted_at LIMIT 1`,
    );
    const id = rows[0]?.id as string;
    await database.pool.query(
      `INSERT INTO cyclium_episode_outputs (output_key, episode_id, attempt, actor_id, value, inserted_at)
       VALUES ('report', $1, 2, 'alpha', '{"total": 3}', now() - interval '1 minute'),
              ('episode:' || $1, $1, 2, 'alpha', '"done"', now())`,
      [id],
    );
    const outputs = await viewer().episodes.outputs({ id });
    expect(outputs.map((o) => [o.outputKey, o.attempt, o.value])).toEqual([
      ["report", 2, { total: 3 }],
      [`episode:${id}`, 2, "done"],
    ]);
    expect(typeof outputs[0]?.insertedAt).toBe("string");
  });
});
