import {
  ActorRegistry,
  StrategyRegistry,
  registerNode,
  defineActor,
  done,
} from "@cyclium/core/console";
import type { Mode } from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedTestUsers, testContext, type TTestUsers } from "../../auth/testing/auth-test-kit";
import { setConsoleRuntime, type TConsoleRuntime } from "../../runtime/console-runtime";
import { createCaller } from "../root-router";

// Issue 14 item 4 through createCaller on a real database: why a pending episode has not
// started, one case per blocker. Nodes are registry rows (what a live node's heartbeat writes),
// episodes and requests are rows as the runtime writes them: the explanation reads only those.
let database: TestDatabase;
let users: TTestUsers;

const strategy = { init: () => null, step: () => done() };
const expectations = [{ id: "run", strategy, trigger: { manual: true as const } }];
const busy = defineActor({ identifier: "busy", maxConcurrentEpisodes: 1, expectations });
const gpu = defineActor({ identifier: "gpu_job", stacks: ["gpu"], expectations });
const registry = new ActorRegistry({ strategies: new StrategyRegistry({}), actors: [busy, gpu] });

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  setConsoleRuntime({ nodeIdentity: "web-test", registry } as unknown as TConsoleRuntime);
});
beforeEach(async () => {
  for (const table of ["episodes", "nodes", "mode_overrides", "concurrency_overrides"]) {
    await database.pool.query(`DELETE FROM cyclium_${table}`);
  }
});
afterAll(async () => {
  setConsoleRuntime(null);
  await database?.drop();
});

const viewer = () => createCaller(testContext(database.pool, users.viewer));
const operator = () => createCaller(testContext(database.pool, users.operator));

async function live(
  identity: string,
  node: { mode?: Mode; env?: string | null; stack?: string | null } = {},
): Promise<void> {
  await registerNode({
    db: database.pool,
    node: { identity, kind: "worker", mode: "full", env: null, stack: null, ...node },
  });
}

let order = 0;
async function episode(
  actorId: string,
  row: { status?: string; queuedBy?: string; executedBy?: string; env?: string } = {},
): Promise<string> {
  order += 1;
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes
       (actor_id, expectation_id, status, trigger_type, queued_by, executed_by, source_env,
        inserted_at)
     VALUES ($1, 'run', $2, 'manual', $3, $4, $5, now() - make_interval(secs => 1000 - $6))
     RETURNING id`,
    [actorId, row.status ?? "pending", row.queuedBy, row.executedBy, row.env, order],
  );
  return rows[0]!.id;
}

async function request(
  episodeId: string,
  actorId: string,
  row: { status?: "pending" | "claimed"; claimedBy?: string; env?: string } = {},
): Promise<void> {
  await database.pool.query(
    `INSERT INTO cyclium_trigger_requests
       (episode_id, actor_id, expectation_id, status, claimed_by, source_env)
     VALUES ($1, $2, 'run', $3, $4, $5)`,
    [episodeId, actorId, row.status ?? "pending", row.claimedBy, row.env],
  );
}

async function reasonOf(id: string) {
  const reasons = await viewer().episodes.waitReasons({ ids: [id] });
  return reasons[id];
}

describe("episodes.waitReasons", () => {
  it("names an override on the node whose queue holds it, and who set it", async () => {
    await live("worker-1");
    await operator().modes.set({ targetNode: "worker-1", actorId: "busy", mode: "trigger_only" });
    const id = await episode("busy", { queuedBy: "worker-1" });
    const reason = await reasonOf(id);
    expect(reason).toMatchObject({ code: "actor_not_full", queue: { node: "worker-1" } });
    expect(reason?.message).toContain("busy in trigger_only by an override (set by");
  });

  it("says no live node runs in full mode when every node is trigger_only (node mode)", async () => {
    await live("web-1", { mode: "trigger_only" });
    const id = await episode("busy");
    await request(id, "busy");
    const reason = await reasonOf(id);
    expect(reason).toMatchObject({ code: "no_full_nodes", queue: null });
    expect(reason?.message).toContain("web-1 is trigger_only");
  });

  it("says no live full-mode worker serves its env, or runs its actor's stack", async () => {
    await live("worker-1", { env: "prod", stack: "cpu" });
    const staging = await episode("busy", { env: "staging" });
    await request(staging, "busy", { env: "staging" });
    expect(await reasonOf(staging)).toMatchObject({ code: "no_full_nodes_in_env" });

    const gpuJob = await episode("gpu_job", { env: "prod" });
    await request(gpuJob, "gpu_job", { env: "prod" });
    const reason = await reasonOf(gpuJob);
    expect(reason).toMatchObject({ code: "no_full_nodes_for_stack" });
    expect(reason?.message).toContain("worker-1 is stack cpu");
  });

  it("says no node is alive", async () => {
    const id = await episode("busy");
    await request(id, "busy");
    expect(await reasonOf(id)).toMatchObject({ code: "no_live_nodes" });
  });

  it("gives the queue position behind full slots, a page in one call, and follows a new limit", async () => {
    await live("worker-1");
    await episode("busy", { status: "running", executedBy: "worker-1" });
    const queued = [
      await episode("busy", { queuedBy: "worker-1" }),
      await episode("busy", { queuedBy: "worker-1" }),
      await episode("busy", { queuedBy: "worker-1" }),
    ];
    const done = await episode("busy", { status: "completed" });
    const reasons = await viewer().episodes.waitReasons({ ids: [...queued, done] });
    expect(Object.keys(reasons).sort()).toEqual([...queued].sort());
    expect(queued.map((id) => reasons[id]?.code)).toEqual([
      "slots_full",
      "slots_full",
      "slots_full",
    ]);
    expect(reasons[queued[2]!]).toMatchObject({
      queue: { node: "worker-1", position: 3, running: 1, limit: 1 },
    });
    expect(reasons[queued[2]!]?.message).toContain("number 3 in line there (2 episodes ahead)");

    // An operator's limit for this node is the one that binds.
    await operator().modes.setLimit({
      targetNode: "worker-1",
      actorId: "busy",
      maxConcurrentEpisodes: 2,
    });
    expect(await reasonOf(queued[0]!)).toMatchObject({
      code: "starting",
      queue: { position: 1, running: 1, limit: 2 },
    });
  });

  it("says when the node whose queue holds it is gone", async () => {
    await live("worker-1");
    const id = await episode("busy", { queuedBy: "worker-9" });
    expect(await reasonOf(id)).toMatchObject({
      code: "queue_owner_gone",
      queue: { node: "worker-9" },
    });
  });

  it("says a request's candidates are all at the actor's limit", async () => {
    await live("worker-1");
    await episode("busy", { status: "running", executedBy: "worker-1" });
    const id = await episode("busy");
    await request(id, "busy");
    const reason = await reasonOf(id);
    expect(reason).toMatchObject({ code: "slots_full", candidates: ["worker-1"] });
    expect(reason?.message).toContain("worker-1 1 of 1");
  });

  it("says a claimed request waits in the claiming node's queue, else nothing holds it", async () => {
    await live("worker-1");
    const claimed = await episode("busy");
    await request(claimed, "busy", { status: "claimed", claimedBy: "worker-1" });
    expect(await reasonOf(claimed)).toMatchObject({ code: "claimed", candidates: ["worker-1"] });

    const free = await episode("busy");
    expect(await reasonOf(free)).toMatchObject({ code: "waiting" });
  });

  it("refuses more than a page of ids and malformed ids (400)", async () => {
    const ids = Array.from({ length: 201 }, () => crypto.randomUUID());
    await expect(viewer().episodes.waitReasons({ ids })).rejects.toThrow(TRPCError);
    await expect(viewer().episodes.waitReasons({ ids: ["nope"] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});
