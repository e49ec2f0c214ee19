import { seedFinishedHistory } from "@cyclium/core/testing";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TTrpcContext } from "../init";
import { createCaller } from "../root-router";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  // The console's env module needs a DATABASE_URL; the retention variables stay at their defaults.
  process.env.DATABASE_URL ??= database.url;
});

afterAll(async () => {
  await database.drop();
});

function context(role: "viewer" | "operator"): TTrpcContext {
  return {
    db: database.pool,
    node: { identity: "web-test", mode: "trigger_only", env: null, stack: null },
    principal: {
      kind: "user",
      id: "00000000-0000-4000-8000-000000000002",
      name: `${role}@test`,
      role,
    },
    request: { ip: "127.0.0.1", userAgent: "vitest", origin: "same" },
  };
}

describe("pruner on the Recovery page", () => {
  it("an operator prunes now (audited); everyone sees the policy and the run; a viewer may not run it", async () => {
    await seedFinishedHistory(
      { count: 40, actorId: "old", finishedAgoMs: 8 * 86_400_000 },
      database.pool,
    );
    await seedFinishedHistory({ count: 5, actorId: "young", finishedAgoMs: 60_000 }, database.pool);

    await expect(createCaller(context("viewer")).pruner.run({})).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const result = await createCaller(context("operator")).pruner.run({});
    expect(result.kind).toBe("pruned");
    expect(result.kind === "pruned" && result.run.deleted.episodes).toBe(40);
    const { rows: left } = await database.pool.query<{ actor_id: string }>(
      `SELECT DISTINCT actor_id FROM cyclium_episodes`,
    );
    expect(left).toEqual([{ actor_id: "young" }]);
    const { rows: audit } = await database.pool.query<{ principal: string; outcome: string }>(
      `SELECT principal, outcome FROM cyclium_audit_log WHERE action = 'pruner.run'`,
    );
    expect(audit).toEqual([
      { principal: "user:viewer@test", outcome: "refused" },
      { principal: "user:operator@test", outcome: "ok" },
    ]);

    const overview = await createCaller(context("viewer")).pruner.overview({});
    expect(overview.policy[0]).toMatchObject({ family: "episodes", age: "7d" });
    expect(overview.policy.find((line) => line.family === "audit log")?.age).toBe("forever");
    expect(overview.runs[0]).toMatchObject({
      trigger: "manual",
      requestedBy: "operator@test",
      status: "completed",
      totalDeleted: 40 * 4,
    });
    expect(typeof overview.runs[0]?.insertedAt).toBe("string");
  });
});
