import type { CycliumNode } from "@cyclium/core/console";
import { DEFAULT_DEPLOYMENT, loadDeployment, silentLogger, Telemetry } from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  auditRows,
  seedTestUsers,
  testContext,
  type TTestUsers,
} from "../../auth/testing/auth-test-kit";
import { setConsoleRuntime } from "../../runtime/console-runtime";
import { createConsoleNode } from "../../runtime/create-console-node";
import { createCaller } from "../root-router";

// A real console node (trigger_only, demo actors) on a test database: fires go through its
// ActorHost and deferred runner exactly as in production.
let database: TestDatabase;
let users: TTestUsers;
let node: CycliumNode;

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  vi.stubEnv("CYCLIUM_DEMO_REVIEW_CRON", "0 0 1 1 *");
  const created = await createConsoleNode({
    db: database.pool,
    databaseUrl: database.url,
    nodeIdentity: "web-test",
    env: null,
    stack: null,
    workClaims: "postgres",
    leaseSeconds: 120,
    // The default deployment as CYCLIUM_DEPLOYMENT names it, with its review moved out of the
    // way (a scheduled firing landing mid-test would change the counts below).
    deployment: await loadDeployment(DEFAULT_DEPLOYMENT),
    telemetry: new Telemetry(),
    logger: silentLogger,
    jitterMs: 0,
    telemetryRollups: false,
  });
  node = created.node;
  setConsoleRuntime(created.runtime);
});

afterAll(async () => {
  setConsoleRuntime(null);
  vi.unstubAllEnvs();
  await node?.stop({ graceMs: 0 });
  await database?.drop();
});

const operator = () => createCaller(testContext(database.pool, users.operator));
const viewer = () => createCaller(testContext(database.pool, users.viewer));

describe("actors", () => {
  it("lists the demo actors with their expectations", async () => {
    const actors = await viewer().actors.list();
    expect(actors.map((actor) => actor.identifier)).toEqual([
      "resource_advisor",
      "resource_monitor",
    ]);
    expect(actors[1]?.expectations[0]).toMatchObject({
      id: "check_resource_limits",
      triggerKind: "event",
      recoveryPolicy: "restart",
    });
  });

  it("creates one pending episode and one trigger request per idempotency key", async () => {
    const fire = {
      actorId: "resource_monitor",
      expectationId: "check_resource_limits",
      idempotencyKey: "click-intent-0001",
      input: { resourceId: "db-primary" },
    };
    const [first, second] = await Promise.all([
      operator().actors.fire(fire),
      operator().actors.fire(fire),
    ]);
    expect(first?.episodeId).toBe(second?.episodeId);
    expect([first?.created, second?.created].sort()).toEqual([false, true]);
    const { rows } = await database.pool.query<{ status: string; requests: number }>(
      `SELECT e.status, (SELECT count(*)::int FROM cyclium_trigger_requests r WHERE r.episode_id = e.id) AS requests
         FROM cyclium_episodes e WHERE e.dedupe_key = 'manual:resource_monitor:check_resource_limits:click-intent-0001'`,
    );
    expect(rows).toEqual([{ status: "pending", requests: 1 }]);
    expect(await auditRows(database.pool, "actors.fire")).toHaveLength(2);
  });

  it("schedules a fire for later at a priority, says why it waits, and refuses bad timing", async () => {
    const runAt = new Date(Date.now() + 3_600_000).toISOString();
    const fired = await operator().actors.fire({
      actorId: "resource_monitor",
      expectationId: "check_resource_limits",
      idempotencyKey: "click-intent-0003",
      input: { resourceId: "db-primary" },
      runAt,
      priority: 7,
    });
    const { rows } = await database.pool.query<{ run_at: Date; priority: number }>(
      "SELECT run_at, priority FROM cyclium_trigger_requests WHERE episode_id = $1",
      [fired.episodeId],
    );
    expect(rows).toEqual([{ run_at: new Date(runAt), priority: 7 }]);
    // Its page: attempt 1, of one (the demo expectation declares no retry).
    expect(await operator().episodes.detail({ id: fired.episodeId })).toMatchObject({
      attempt: 1,
      maxAttempts: 1,
    });
    const reasons = await operator().episodes.waitReasons({ ids: [fired.episodeId] });
    expect(reasons[fired.episodeId]).toMatchObject({ code: "scheduled" });
    expect(reasons[fired.episodeId]?.message).toContain(runAt);
    const [audit] = (await auditRows(database.pool, "actors.fire")).slice(-1);
    expect(audit?.detail).toMatchObject({ runAt, priority: 7 });
    for (const [field, value] of [
      ["priority", 11],
      ["delayMs", -1],
      ["runAt", "tomorrow"],
    ] as const) {
      const bad: Record<string, unknown> = {
        actorId: "resource_monitor",
        expectationId: "check_resource_limits",
        idempotencyKey: "click-intent-0004",
        input: { resourceId: "db-primary" },
        [field]: value,
      };
      const refusal: unknown = await operator()
        .actors.fire(bad as never)
        .catch((error: unknown) => error);
      expect(refusal).toMatchObject({ code: "BAD_REQUEST" });
      expect(String((refusal as Error).message)).toContain(field);
    }
    // The tests below count the pending requests.
    await database.pool.query("DELETE FROM cyclium_episodes WHERE id = $1", [fired.episodeId]);
  });

  it("refuses an unknown expectation with a clear message", async () => {
    await expect(
      operator().actors.fire({
        actorId: "resource_monitor",
        expectationId: "nope",
        idempotencyKey: "click-intent-0002",
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("trigger requests explain why they wait", () => {
  it("names the override that keeps the only full node from taking the actor", async () => {
    await database.pool.query(
      `INSERT INTO cyclium_nodes (identity, kind, mode, overrides, last_seen_at)
       VALUES ('worker-1', 'worker', 'full', '{}', now())`,
    );
    await operator().modes.set({
      targetNode: "worker-1",
      actorId: "resource_monitor",
      mode: "trigger_only",
    });
    const list = await viewer().triggerRequests.list({ status: "pending" });
    expect(list.pending).toBe(1);
    expect(list.items[0]?.pendingReason).toMatchObject({ code: "actor_not_full" });
    expect(list.items[0]?.pendingReason?.message).toContain(
      "worker-1 has resource_monitor in trigger_only by an override (set by operator@test.local)",
    );

    await operator().modes.clear({ targetNode: "worker-1", actorId: "resource_monitor" });
    const after = await viewer().triggerRequests.list({ status: "pending" });
    expect(after.items[0]?.pendingReason).toMatchObject({
      code: "waiting_for_poll",
      candidates: ["worker-1"],
    });
    const cluster = await viewer().modes.cluster();
    expect(cluster.overrideRows).toEqual([]);
    expect(cluster.nodes.map((n) => n.identity)).toContain("web-test");
  });

  it("says when no node serves the request's env", async () => {
    await database.pool.query(
      "UPDATE cyclium_nodes SET env = 'staging' WHERE identity = 'worker-1'",
    );
    const list = await viewer().triggerRequests.list({ status: "pending" });
    expect(list.items[0]?.pendingReason?.code).toBe("no_full_nodes_in_env");
  });
});

describe("recovery and triggers through the console node", () => {
  it("runs a sweep, records it, and audits it", async () => {
    const result = await operator().recovery.sweep({});
    expect(result).toMatchObject({ found: 0, restarted: 0 });
    const overview = await viewer().recovery.overview({});
    expect(overview.sweeps[0]).toMatchObject({
      trigger: "manual",
      requestedBy: "operator@test.local",
    });
    expect(await auditRows(database.pool, "recovery.sweep")).toEqual([
      expect.objectContaining({ outcome: "ok" }),
    ]);
  });

  it("lists the demo trigger with its subscribers and pauses and resumes it", async () => {
    const list = await viewer().triggers.list({});
    expect(list.items[0]).toMatchObject({
      name: "capacity_review_schedule",
      cron: "0 0 1 1 *",
      subscribers: ["capacity_review", "capacity_snapshot"],
      paused: false,
    });
    await operator().triggers.pause({ name: "capacity_review_schedule" });
    expect(
      (await viewer().triggers.inspect({ name: "capacity_review_schedule" })).trigger,
    ).toMatchObject({
      paused: true,
      paused_by: "operator@test.local",
    });
    // Pause stops the schedule, not an operator: the Fire button fires a paused trigger.
    const whilePaused = await operator().triggers.fire({ name: "capacity_review_schedule" });
    expect(whilePaused.fired).toBe(2);
    await operator().triggers.resume({ name: "capacity_review_schedule" });
    // A second fire while the first one's workflows run fires again (never deduplicated).
    const fired = await operator().triggers.fire({ name: "capacity_review_schedule" });
    expect(fired.executions.map((e) => e.workflow)).toEqual([
      "capacity_review",
      "capacity_snapshot",
    ]);
    const instances = await viewer().workflows.list({});
    expect(instances.items.map((i) => i.workflowName).sort()).toEqual([
      "capacity_review",
      "capacity_review",
      "capacity_snapshot",
      "capacity_snapshot",
    ]);
    const graph = await viewer().workflows.instance({
      id: instances.items.find((i) => i.workflowName === "capacity_review")?.id ?? "",
    });
    expect(graph?.nodes.map((n) => [n.name, n.depth])).toEqual([
      ["survey", 0],
      ["check_primary", 1],
    ]);
  });
});
