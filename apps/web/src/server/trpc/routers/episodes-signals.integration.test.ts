import { ActorRegistry, defineActor, done, StrategyRegistry } from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import type { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  auditRows,
  seedTestUsers,
  testContext,
  type TTestUsers,
} from "../../auth/testing/auth-test-kit";
import { setConsoleRuntime, type TConsoleRuntime } from "../../runtime/console-runtime";
import { createCaller } from "../root-router";

// The console's side of durable waits (issue 32) through createCaller on a real database: a
// waiting episode's wait and its declared signals' schemas, the operator's audited signal, the
// viewer refused, and the list filtered by status and by the signal awaited.
let database: TestDatabase;
let users: TTestUsers;

const strategy = { init: () => null, step: () => done() };
const approver = defineActor({
  identifier: "approver",
  expectations: [
    {
      id: "run",
      strategy,
      trigger: { manual: true as const },
      signals: {
        approval: z.strictObject({
          decision: z.enum(["approve", "reject"]),
          comment: z.string().min(1),
        }),
      },
    },
  ],
});
const registry = new ActorRegistry({ strategies: new StrategyRegistry({}), actors: [approver] });

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  setConsoleRuntime({ nodeIdentity: "web-test", registry } as unknown as TConsoleRuntime);
});
afterAll(async () => {
  setConsoleRuntime(null);
  await database?.drop();
});

const viewer = () => createCaller(testContext(database.pool, users.viewer));
const operator = () => createCaller(testContext(database.pool, users.operator));

async function waitingEpisode(signal: string): Promise<string> {
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
     VALUES ('approver', 'run', 'waiting', 'manual') RETURNING id`,
  );
  const id = rows[0]!.id;
  await database.pool.query(
    `INSERT INTO cyclium_episode_waits (episode_id, kind, signal, step_no, attempt, wake_at)
     VALUES ($1, 'signal', $2, 1, 1, now() + interval '1 hour')`,
    [id, signal],
  );
  return id;
}

describe("episodes: durable waits in the console", () => {
  it("shows what a waiting episode waits for, with each declared signal's schema", async () => {
    const id = await waitingEpisode("approval");
    const view = await viewer().episodes.wait({ id });
    expect(view.wait).toMatchObject({ kind: "signal", signal: "approval", stepNo: 1 });
    expect(typeof view.wait?.since).toBe("string");
    expect(view.signals.map((signal) => signal.name)).toEqual(["approval"]);
    expect(view.signals[0]?.jsonSchema).toMatchObject({
      properties: { decision: { enum: ["approve", "reject"] } },
      required: ["decision", "comment"],
    });
  });

  it("lets an operator send it, audited with the payload; a viewer may not", async () => {
    const id = await waitingEpisode("approval");
    const payload = { decision: "approve", comment: "looks right" };
    await expect(viewer().episodes.signal({ id, name: "approval", payload })).rejects.toMatchObject(
      { code: "FORBIDDEN" } satisfies Partial<TRPCError>,
    );
    const sent = await operator().episodes.signal({ id, name: "approval", payload });
    expect(sent).toMatchObject({ kind: "delivered", woke: true });
    const audit = (await auditRows(database.pool, "episodes.signal")).filter(
      (row) => row.target === id && row.outcome === "ok",
    );
    expect(audit).toEqual([
      expect.objectContaining({
        principal: "user:operator@test.local",
        detail: { via: "console", signal: "approval", payload },
      }),
    ]);
    await expect(
      operator().episodes.signal({ id, name: "approval", payload: { decision: "maybe" } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("filters the list by status waiting and by the signal awaited", async () => {
    const approval = await waitingEpisode("approval");
    const other = await waitingEpisode("payment");
    const bySignal = await viewer().episodes.list({ q: "signal:payment" });
    expect(bySignal.items.map((item) => item.id)).toEqual([other]);
    const waiting = await viewer().episodes.list({ status: "waiting" });
    expect(waiting.items.map((item) => item.id)).toEqual(expect.arrayContaining([approval, other]));
    const overview = await viewer().overview.stats();
    expect(overview.episodes.waiting).toBeGreaterThanOrEqual(2);
  });
});
