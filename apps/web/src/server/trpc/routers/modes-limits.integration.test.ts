import { listConcurrencyOverrides, listModeOverrides } from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditRows,
  seedTestUsers,
  testContext,
  type TTestUsers,
} from "../../auth/testing/auth-test-kit";
import { createCaller } from "../root-router";

// Issue 14 item 6 through createCaller: an actor's limit per node and "clear all overrides of a
// node" are operator commands, audited, stored where nodes read them (a node applying them is
// core's concurrency-limits integration test).
let database: TestDatabase;
let users: TTestUsers;

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
});
afterAll(async () => {
  await database?.drop();
});

const viewer = () => createCaller(testContext(database.pool, users.viewer));
const operator = () => createCaller(testContext(database.pool, users.operator));

describe("modes.setLimit / clearLimit / clearNode", () => {
  it("sets, replaces and clears a limit, each audited, and the cluster lists it", async () => {
    await operator().modes.setLimit({
      targetNode: "worker-1",
      actorId: "monitor",
      maxConcurrentEpisodes: 3,
    });
    const saved = await operator().modes.setLimit({
      targetNode: "worker-1",
      actorId: "monitor",
      maxConcurrentEpisodes: 5,
    });
    expect(saved).toMatchObject({ maxConcurrentEpisodes: 5, setBy: users.operator.name });
    const cluster = await viewer().modes.cluster();
    expect(
      cluster.limitRows.map((row) => [row.targetNode, row.actorId, row.maxConcurrentEpisodes]),
    ).toEqual([["worker-1", "monitor", 5]]);

    expect(
      await operator().modes.clearLimit({ targetNode: "worker-1", actorId: "monitor" }),
    ).toEqual({ kind: "cleared" });
    expect(
      await operator().modes.clearLimit({ targetNode: "worker-1", actorId: "monitor" }),
    ).toEqual({ kind: "not_found" });

    expect(await auditRows(database.pool, "modes.set_limit")).toEqual([
      expect.objectContaining({
        outcome: "ok",
        target: "worker-1/monitor",
        detail: { maxConcurrentEpisodes: 3 },
      }),
      expect.objectContaining({
        outcome: "ok",
        target: "worker-1/monitor",
        detail: { maxConcurrentEpisodes: 5 },
      }),
    ]);
    expect(await auditRows(database.pool, "modes.clear_limit")).toHaveLength(2);
  });

  it("refuses a viewer and a limit outside 1..10,000", async () => {
    await expect(
      viewer().modes.setLimit({
        targetNode: "worker-1",
        actorId: "monitor",
        maxConcurrentEpisodes: 2,
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    for (const maxConcurrentEpisodes of [0, 10_001, 1.5]) {
      await expect(
        operator().modes.setLimit({
          targetNode: "worker-1",
          actorId: "monitor",
          maxConcurrentEpisodes,
        }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    expect(await listConcurrencyOverrides({ db: database.pool })).toEqual([]);
  });

  it("clears every override of one node only, in one audited command", async () => {
    const op = operator();
    await op.modes.set({ targetNode: "worker-1", mode: "trigger_only" });
    await op.modes.set({ targetNode: "worker-1", actorId: "monitor", mode: "disabled" });
    await op.modes.setLimit({
      targetNode: "worker-1",
      actorId: "monitor",
      maxConcurrentEpisodes: 4,
    });
    await op.modes.set({ targetNode: "worker-2", actorId: "monitor", mode: "disabled" });
    await op.modes.setLimit({
      targetNode: "worker-2",
      actorId: "monitor",
      maxConcurrentEpisodes: 2,
    });
    await op.modes.setLimit({ targetNode: "*", actorId: "monitor", maxConcurrentEpisodes: 6 });

    expect(await op.modes.clearNode({ targetNode: "worker-1" })).toEqual({
      kind: "cleared",
      modeOverrides: 2,
      concurrencyOverrides: 1,
    });
    expect((await listModeOverrides({ db: database.pool })).map((row) => row.targetNode)).toEqual([
      "worker-2",
    ]);
    expect(
      (await listConcurrencyOverrides({ db: database.pool })).map((row) => row.targetNode),
    ).toEqual(["*", "worker-2"]);
    expect(await op.modes.clearNode({ targetNode: "worker-1" })).toEqual({
      kind: "nothing_to_clear",
    });
    expect(await auditRows(database.pool, "modes.clear_node")).toEqual([
      expect.objectContaining({
        outcome: "ok",
        target: "worker-1",
        principal: `user:${users.operator.name}`,
      }),
      expect.objectContaining({ outcome: "ok", target: "worker-1" }),
    ]);
    await expect(viewer().modes.clearNode({ targetNode: "worker-2" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});
