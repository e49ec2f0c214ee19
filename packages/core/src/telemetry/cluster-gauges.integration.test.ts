import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markNodeStopped, registerNode } from "../nodes/index";
import { registerClusterGauges } from "./cluster-gauges";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

async function pendingRequest(env: string | null, ageSeconds: number): Promise<void> {
  await db.pool.query(
    `WITH episode AS (
       INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, source_env)
       VALUES ('alpha', 'run', 'pending', 'manual', $1) RETURNING id)
     INSERT INTO cyclium_trigger_requests
       (episode_id, actor_id, expectation_id, source_env, status, inserted_at)
     SELECT id, 'alpha', 'run', $1, 'pending', now() - make_interval(secs => $2::float8)
       FROM episode`,
    [env, ageSeconds],
  );
}

describe("registerClusterGauges", () => {
  it("reports pending requests per env, live nodes by mode, and silent nodes by name", async () => {
    const registry = new Registry();
    registerClusterGauges({ db: db.pool, registry });
    expect(await registry.metrics()).not.toContain("cyclium_trigger_requests_pending{");

    await pendingRequest("rc", 1_200);
    await pendingRequest("rc", 30);
    await pendingRequest(null, 5);
    await registerNode({ db: db.pool, node: { identity: "w-live", kind: "worker", mode: "full" } });
    await registerNode({
      db: db.pool,
      node: { identity: "w-rc", kind: "worker", mode: "full", env: "rc" },
    });
    await registerNode({
      db: db.pool,
      node: { identity: "w-gone", kind: "worker", mode: "full", env: "rc" },
    });
    await registerNode({
      db: db.pool,
      node: { identity: "w-stopped", kind: "worker", mode: "full" },
    });
    await markNodeStopped({ db: db.pool, identity: "w-stopped" });
    await db.pool.query(
      "UPDATE cyclium_nodes SET last_seen_at = now() - interval '10 minutes' WHERE identity IN ('w-gone', 'w-rc')",
    );

    const text = await registry.metrics();
    expect(text).toContain('cyclium_trigger_requests_pending{env="rc"} 2');
    expect(text).toContain('cyclium_trigger_requests_pending{env=""} 1');
    const oldest = /cyclium_trigger_requests_oldest_pending_seconds\{env="rc"\} ([\d.]+)/.exec(
      text,
    );
    expect(Number(oldest?.[1])).toBeGreaterThanOrEqual(1_200);
    expect(Number(oldest?.[1])).toBeLessThan(1_300);
    // Only w-live is live; the rc env has no live full worker, so it has no series at all.
    expect(text).toContain('cyclium_nodes_live{kind="worker",mode="full",env=""} 1');
    expect(text).not.toContain('cyclium_nodes_live{kind="worker",mode="full",env="rc"}');
    const gone =
      /cyclium_node_last_seen_seconds\{node="w-gone",kind="worker",env="rc"\} ([\d.]+)/.exec(text);
    expect(Number(gone?.[1])).toBeGreaterThanOrEqual(600);
    // A node that stopped cleanly is not missing.
    expect(text).not.toContain('node="w-stopped"');
  });
});
