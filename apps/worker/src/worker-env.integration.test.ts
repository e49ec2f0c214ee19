import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnWorker } from "./testing/spawn-worker";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe("a worker configured by the environment alone", () => {
  // The test worker calls runWorker({ deployment, jitterMs, version }) and passes no setting read
  // from the environment: what docs/deployment.md's recipes set must reach the node anyway.
  it("honours identity, env, stack and CYCLIUM_MIGRATE=false from the variables", async () => {
    const worker = spawnWorker({
      identity: "env-worker",
      env: {
        DATABASE_URL: db.url,
        CYCLIUM_ENV: "rc",
        CYCLIUM_STACK_SLUG: "blue",
        CYCLIUM_MIGRATE: "false",
      },
    });
    try {
      await worker.ready;
      const { rows } = await db.pool.query(
        "SELECT identity, env, stack, status FROM cyclium_nodes WHERE kind = 'worker'",
      );
      expect(rows).toEqual([
        { identity: "env-worker", env: "rc", stack: "blue", status: "running" },
      ]);
      expect(worker.output.some((line) => line.includes("migrations checked"))).toBe(false);
    } finally {
      await worker.stop("SIGTERM");
    }
  }, 60_000);
});
