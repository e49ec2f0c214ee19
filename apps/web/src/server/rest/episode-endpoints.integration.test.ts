import { createApiToken } from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEpisodeEndpoints } from "./episode-endpoints";
import { ZEpisodeWaitAnswer } from "./episode-endpoints.schema";

// REST v1 "why it waits" (SPEC section 16): the console's explanation, for scripts, including a
// cluster-wide limit that holds the episode back.
let database: TestDatabase;
let viewer = "";
let tenantB = "";
let endpoints: ReturnType<typeof createEpisodeEndpoints>;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.pool;
  viewer = (await createApiToken({ db, name: "viewer-ci", role: "viewer", createdBy: null })).token;
  tenantB = (
    await createApiToken({ db, name: "b-ci", role: "viewer", tenants: ["b"], createdBy: null })
  ).token;
  endpoints = createEpisodeEndpoints({ getDb: () => db, getActors: () => [] });
});

afterAll(async () => {
  await database.drop();
});

async function waitReason(id: string, t = "default", token = viewer) {
  const response = await endpoints.waitReason(
    new Request(`http://console.test/api/v1/tenants/${t}/episodes/${id}/wait-reason`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    { params: Promise.resolve({ t, id }) },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("REST v1 GET /tenants/{t}/episodes/{id}/wait-reason", () => {
  it("names the global limit that holds a pending episode, and where it runs", async () => {
    const { rows } = await database.pool.query<{ id: string }>(
      `WITH running AS (
         INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, executed_by,
                                       started_at, limit_keys)
         VALUES ('llm', 'call', 'running', 'manual', 'worker-2', now(), ARRAY['global:/llm'])
       ), waiting AS (
         INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, limit_wait)
         VALUES ('llm', 'call', 'pending', 'manual',
                 '{"k":"global:/llm","c":"concurrency","l":1,"n":1,"at":"2026-12-05T10:00:00Z"}')
         RETURNING id
       ), requested AS (
         INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
         SELECT id, 'llm', 'call', 'pending' FROM waiting
       )
       SELECT id::text FROM waiting`,
    );
    const id = rows[0]?.id ?? "";
    const answer = await waitReason(id);
    expect(answer).toEqual({
      status: 200,
      body: {
        tenant_id: "default",
        episode_id: id,
        status: "pending",
        wait_reason: {
          code: "concurrency_limited",
          message: "Global limit 1/1, running on worker-2: it starts when one of them ends.",
          candidates: ["worker-2"],
          queue: null,
        },
      },
    });
    expect(ZEpisodeWaitAnswer.parse(answer.body)).toBeTruthy();
  });

  it("answers null for an episode that does not wait, 404 for another tenant's or none", async () => {
    const { rows } = await database.pool.query<{ id: string }>(
      `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
       VALUES ('llm', 'call', 'completed', 'manual') RETURNING id::text`,
    );
    const id = rows[0]?.id ?? "";
    expect((await waitReason(id)).body).toMatchObject({ status: "completed", wait_reason: null });
    expect((await waitReason(id, "b", tenantB)).status).toBe(404);
    expect((await waitReason("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await waitReason("not-a-uuid")).status).toBe(400);
  });
});
