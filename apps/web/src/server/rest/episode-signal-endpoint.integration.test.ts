import { createApiToken } from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { auditRows } from "../auth/testing/auth-test-kit";
import { setConsoleRuntime, type TConsoleRuntime } from "../runtime/console-runtime";
import { createEpisodeEndpoints } from "./episode-endpoints";

// REST v1 `POST /tenants/{t}/episodes/{id}/signals/{name}` (issue 32) against a real database:
// validated against the expectation's schema, deduped by idempotency key, operator only, audited.
let database: TestDatabase;
let tokens: Record<"operator" | "viewer", string>;
let endpoints: ReturnType<typeof createEpisodeEndpoints>;

const approval = z.strictObject({ approved: z.boolean(), comment: z.string().min(1) });

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.pool;
  setConsoleRuntime({
    nodeIdentity: "web-test",
    registry: {
      expectation: (actorId: string, expectationId: string) =>
        actorId === "approver" && expectationId === "run" ? { signals: { approval } } : undefined,
    },
  } as unknown as TConsoleRuntime);
  tokens = {
    operator: (await createApiToken({ db, name: "ops", role: "operator", createdBy: null })).token,
    viewer: (await createApiToken({ db, name: "dash", role: "viewer", createdBy: null })).token,
  };
  endpoints = createEpisodeEndpoints({ getDb: () => db, getActors: () => [] });
});

afterAll(async () => {
  setConsoleRuntime(null);
  await database.drop();
});

async function insertEpisode(status: "pending" | "waiting", env: string | null = null) {
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, source_env)
     VALUES ('approver', 'run', $1, 'manual', $2) RETURNING id`,
    [status, env],
  );
  const id = rows[0]!.id;
  if (status === "waiting") {
    await database.pool.query(
      `INSERT INTO cyclium_episode_waits (episode_id, kind, signal, step_no, attempt)
       VALUES ($1, 'signal', 'approval', 1, 1)`,
      [id],
    );
  }
  return id;
}

function post(
  path: { t?: string; id: string; name?: string },
  body: unknown,
  token: string = tokens.operator,
) {
  const params = { t: path.t ?? "default", id: path.id, name: path.name ?? "approval" };
  const request = new Request(
    `http://console.test/api/v1/tenants/${params.t}/episodes/${params.id}/signals/${params.name}`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    },
  );
  return endpoints.signal(request, { params: Promise.resolve(params) });
}

describe("REST v1 episode signals", () => {
  it("delivers once per idempotency key and audits who sent which payload", async () => {
    const id = await insertEpisode("pending");
    const payload = { approved: true, comment: "ship it" };
    const first = await post({ id }, { payload, idempotencyKey: "ticket-7" });
    expect(first.status).toBe(200);
    const delivered = (await first.json()) as { kind: string; signal_id: string; woke: boolean };
    expect(delivered).toMatchObject({ kind: "delivered", woke: false });
    const again = await post({ id }, { payload, idempotencyKey: "ticket-7" });
    expect(await again.json()).toEqual({
      kind: "duplicate",
      signal_id: delivered.signal_id,
      woke: false,
    });
    const rows = (await auditRows(database.pool, "episodes.signal")).filter(
      (row) => row.target === id,
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      principal: "token:ops",
      outcome: "ok",
      detail: { via: "rest", signal: "approval", payload, idempotencyKey: "ticket-7" },
    });
  });

  it("wakes a waiting episode: its request is due now", async () => {
    const id = await insertEpisode("waiting");
    const response = await post({ id }, { payload: { approved: false, comment: "no" } });
    expect(await response.json()).toMatchObject({ kind: "delivered", woke: true });
    const { rows } = await database.pool.query<{ due: boolean }>(
      `SELECT run_at <= now() AS due FROM cyclium_trigger_requests
        WHERE episode_id = $1 AND status = 'pending'`,
      [id],
    );
    expect(rows).toEqual([{ due: true }]);
  });

  it("answers 400 naming the field, 404, 409 and 403 as the contract says", async () => {
    const id = await insertEpisode("pending");
    const bad = await post({ id }, { payload: { approved: true, comment: "" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: "invalid_input",
      error: expect.stringContaining("payload.comment") as unknown,
    });
    const unknown = await post({ id, name: "veto" }, { payload: {} });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toMatch(/^name: .*approval/);
    const otherEnv = await post(
      { id, t: "staging" },
      { payload: { approved: true, comment: "x" } },
    );
    expect(otherEnv.status).toBe(404);
    const missing = await post(
      { id: crypto.randomUUID() },
      { payload: { approved: true, comment: "x" } },
    );
    expect(missing.status).toBe(404);
    const viewer = await post({ id }, { payload: { approved: true, comment: "x" } }, tokens.viewer);
    expect(viewer.status).toBe(403);
    await database.pool.query(`UPDATE cyclium_episodes SET status = 'completed' WHERE id = $1`, [
      id,
    ]);
    const ended = await post({ id }, { payload: { approved: true, comment: "late" } });
    expect(ended.status).toBe(409);
    const { rows } = await database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_signals WHERE episode_id = $1`,
      [id],
    );
    expect(rows[0]?.n).toBe(0);
  });
});
