import { createClient, type CycliumClient } from "@cyclium/core/client";
import { createCycliumNode, type CycliumNode, silentLogger, Telemetry } from "@cyclium/core/worker";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDemoDeployment } from "./demo-deployment";
import { seedDemoData } from "./seed";

// The demo's approval (issue 32): `raise_limit` proposes a limit, waits for an operator's
// signal holding no slot, and applies it in its last step only once approved.
let db: TestDatabase;
let node: CycliumNode;
const deployment = createDemoDeployment();
let client: CycliumClient<typeof deployment>;

beforeAll(async () => {
  db = await createTestDatabase();
  node = await createCycliumNode({
    db: db.pool,
    databaseUrl: db.url,
    kind: "worker",
    mode: "full",
    nodeIdentity: "demo-node",
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
  client = createClient({ connectionString: db.url }, { deployment, by: "operator@demo" });
});
afterAll(async () => {
  await client?.close();
  await node?.stop();
  await db?.drop();
});

async function limitOf(id: string): Promise<number | undefined> {
  const { rows } = await db.pool.query<{ limit: number }>(
    `SELECT "limit" FROM resources WHERE id = $1`,
    [id],
  );
  return rows[0]?.limit;
}

describe("the demo's limit raise", () => {
  it("waits for an operator, then applies the approved limit", async () => {
    await seedDemoData(db.url);
    const { rows } = await db.pool.query<{ id: string }>(
      `SELECT id FROM cyclium_episodes WHERE expectation_id = 'raise_limit'`,
    );
    const id = rows[0]!.id;
    await vi.waitFor(async () => expect((await client.get(id))?.status).toBe("waiting"), {
      timeout: 10_000,
    });
    expect(await limitOf("api-cluster")).toBe(100);
    const payload = { decision: "approve", comment: "traffic doubled this quarter" };
    expect(await client.signal(id, "approval", payload)).toMatchObject({ woke: true });
    const result = await client.result(id, { timeoutMs: 10_000 });
    expect(result).toMatchObject({
      kind: "completed",
      result: { resourceId: "api-cluster", outcome: "raised", from: 100, to: 148 },
    });
    expect(await limitOf("api-cluster")).toBe(148);
  });

  it("applies nothing when rejected", async () => {
    const fired = await client.fire({
      actorId: "resource_monitor",
      expectationId: "raise_limit",
      input: { resourceId: "object-store" },
    });
    if (fired.kind !== "created") throw new Error("not created");
    await vi.waitFor(
      async () => expect((await client.get(fired.episodeId))?.status).toBe("waiting"),
      { timeout: 10_000 },
    );
    await client.signal(fired.episodeId, "approval", { decision: "reject", comment: "no budget" });
    expect(await fired.result({ timeoutMs: 10_000 })).toMatchObject({
      result: { outcome: "rejected", by: "operator@demo", comment: "no budget" },
    });
    expect(await limitOf("object-store")).toBe(1000);
  });
});
