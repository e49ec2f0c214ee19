import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TTrpcContext } from "../init";
import { appRouter, createCaller } from "../root-router";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.pool;
  await db.query(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, source_env)
     VALUES ('a', 'e', 'completed', 'manual', NULL), ('a', 'e', 'completed', 'manual', NULL),
            ('a', 'e', 'failed', 'event', NULL), ('a', 'e', 'running', 'event', 'staging')`,
  );
  await db.query(
    `INSERT INTO cyclium_nodes (identity, kind, mode, last_seen_at, stopped_at) VALUES
       ('worker-live', 'worker', 'full', now() - interval '3 seconds', NULL),
       ('worker-silent', 'worker', 'full', now() - interval '31 seconds', NULL),
       ('worker-stopped', 'worker', 'full', now(), now())`,
  );
});

afterAll(async () => {
  await database.drop();
});

function context(overrides: Partial<TTrpcContext> = {}): TTrpcContext {
  return {
    db: database.pool,
    node: { identity: "web-test", mode: "trigger_only", env: null, stack: null },
    principal: {
      kind: "user",
      id: "00000000-0000-4000-8000-000000000001",
      name: "viewer@test",
      role: "viewer",
    },
    request: { ip: "127.0.0.1", userAgent: "vitest", origin: "same" },
    ...overrides,
  };
}

describe("overview.stats", () => {
  it("counts episodes by status in the console's env only", async () => {
    const stats = await createCaller(context()).overview.stats();
    expect(stats.env).toBeNull();
    expect(stats.episodes).toEqual({
      pending: 0,
      running: 0,
      waiting: 0,
      completed: 2,
      failed: 1,
      cancelled: 0,
      total: 3,
      capped: [],
    });
  });

  it("reads another env when asked, strictly", async () => {
    const stats = await createCaller(context()).overview.stats({ env: "staging" });
    expect(stats.episodes).toMatchObject({ running: 1, completed: 0, total: 1 });
  });

  it("lists only nodes with a heartbeat in the last 30 s that have not stopped", async () => {
    const stats = await createCaller(context()).overview.stats();
    expect(stats.nodes.map((node) => node.identity)).toEqual(["worker-live"]);
    expect(stats.nodes[0]?.lastSeenAgoMs).toBeGreaterThanOrEqual(2_000);
    expect(stats.nodes[0]?.lastSeenAgoMs).toBeLessThan(30_000);
  });

  it("rejects invalid input", async () => {
    await expect(
      // @ts-expect-error -- a number is not an env name; checked at run time too.
      createCaller(context()).overview.stats({ env: 42 }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("errors over HTTP", () => {
  it("hide the message and stack of unexpected failures", async () => {
    const failingDb = {
      query: () => Promise.reject(new Error("relation secret_table does not exist")),
    } as unknown as pg.Pool;
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request("http://localhost/api/trpc/overview.stats"),
      router: appRouter,
      createContext: () => context({ db: failingDb }),
    });
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).toContain("Internal server error");
    expect(body).not.toContain("secret_table");
    expect(body).not.toContain("stack");
  });
});
