import { createClient, defineDeployment } from "@cyclium/core";
import { createCycliumNode, type CycliumNode, silentLogger, Telemetry } from "@cyclium/core/worker";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { approveExpense, expenses } from "./approval";

// docs/getting-started.md's approval example, run: a worker node parks the expense `waiting`,
// approveExpense signals it from another client, and the node resumes it through its sleep to
// the payout.
let db: TestDatabase;
let node: CycliumNode;
const deployment = defineDeployment({ actors: [expenses] });

beforeAll(async () => {
  db = await createTestDatabase();
  node = await createCycliumNode({
    db: db.pool,
    databaseUrl: db.url,
    kind: "worker",
    mode: "full",
    nodeIdentity: "example-worker",
    stack: null,
    env: null,
    workClaims: "postgres",
    leaseSeconds: 30,
    poller: { enabled: true, intervalMs: 5_000, sourceStack: null },
    actors: deployment.actors,
    strategies: deployment.strategies,
    dynamicActors: false,
    telemetryRollups: false,
    jitterMs: 0,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });
  await node.start();
});
afterAll(async () => {
  await node?.stop();
  await db?.drop();
});

describe("the approval example", () => {
  it("waits for the decision, sleeps a second, then pays", async () => {
    const client = createClient({ connectionString: db.url }, { deployment });
    const fired = await client.fire({
      actorId: "expenses",
      expectationId: "review",
      input: { amount: 120, by: "ada" },
    });
    if (fired.kind !== "created") throw new Error(fired.kind);
    await vi.waitFor(
      async () => expect((await client.get(fired.episodeId))?.status).toBe("waiting"),
      { timeout: 10_000 },
    );
    await client.close();
    const result = await approveExpense({
      databaseUrl: db.url,
      deployment,
      episodeId: fired.episodeId,
      by: "finance@example.com",
    });
    expect(result).toEqual({ paid: true, amount: 120, approvedBy: "finance@example.com" });
  });
});
