import { createCycliumNode, type CycliumNode, silentLogger, Telemetry } from "@cyclium/core/worker";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { demoActors, demoStrategies } from "./demo-actors";
import { limitBreachKey } from "./limit-check-strategy";
import { seedDemoData } from "./seed";
import { updateResourceUsage } from "./update-resource-usage";

let db: TestDatabase;
let node: CycliumNode;

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
    poller: { enabled: false, intervalMs: 5_000, sourceStack: null },
    actors: demoActors,
    strategies: demoStrategies,
    dynamicActors: false,
    telemetryRollups: false,
    jitterMs: 0,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });
  await node.start();
});
afterAll(async () => {
  await node.stop();
  await db.drop();
});

async function findings(key: string) {
  const { rows } = await db.pool.query<{
    status: string;
    severity: string;
    summary: string;
    actor_id: string;
  }>(
    "SELECT status, severity, summary, actor_id FROM cyclium_findings WHERE finding_key = $1 ORDER BY inserted_at",
    [key],
  );
  return rows;
}

describe("the demo actors", () => {
  it("seeds the resources table idempotently", async () => {
    const first = await seedDemoData(db.url);
    const second = await seedDemoData(db.url);
    expect(first[0]).toContain("4 resource(s) added, 4 in the resources table");
    expect(first[2]).toContain("raise_limit for api-cluster waits for an operator");
    expect(second[2]).toContain("already proposed");
    expect(second[0]).toContain("0 resource(s) added, 4 in the resources table");
  });

  it("resource_monitor raises a limit_breach finding on an update over the limit and clears it under", async () => {
    await updateResourceUsage({ id: "queue-workers", usage: 55, bus: node.bus }, db.pool);
    await vi.waitFor(async () =>
      expect(await findings(limitBreachKey("queue-workers"))).toEqual([
        {
          status: "active",
          severity: "critical",
          summary: "Queue workers is at 138% of its limit (55 / 40).",
          actor_id: "resource_monitor",
        },
      ]),
    );
    await updateResourceUsage({ id: "queue-workers", usage: 10, bus: node.bus }, db.pool);
    await vi.waitFor(async () =>
      expect((await findings(limitBreachKey("queue-workers"))).map((f) => f.status)).toEqual([
        "cleared",
      ]),
    );
  });

  it("resource_advisor summarises every resource's headroom", async () => {
    const fired = await node.host.fire({
      actorId: "resource_advisor",
      expectationId: "summarise_capacity",
      triggerType: "manual",
    });
    const id = fired.kind === "created" ? fired.episodeId : "";
    const result = await vi.waitFor(async () => {
      const { rows } = await db.pool.query<{ status: string; result: unknown }>(
        "SELECT status, result FROM cyclium_episodes WHERE id = $1",
        [id],
      );
      expect(rows[0]?.status).toBe("completed");
      return rows[0]?.result;
    });
    expect(result).toEqual({
      resources: 4,
      overLimit: ["api-cluster"],
      nearLimit: ["object-store"],
      busiest: { id: "api-cluster", utilization: 1.18 },
      advice: "Raise the limit or shed load on api-cluster.",
    });
  });
});
