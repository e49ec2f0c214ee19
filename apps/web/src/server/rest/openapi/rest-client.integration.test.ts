// The typed client a team generates from the OpenAPI document (openapi-typescript's types,
// generated/rest-api.ts, and openapi-fetch), against the console's route files: a change to an
// answer or a path that the checked-in types do not follow breaks this file's typecheck.
import createClient from "openapi-fetch";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { paths } from "./generated/rest-api";
import { startConsoleFixture, type TConsoleFixture } from "./testing/console-fixture";
import { dispatchToRoutes } from "./testing/route-dispatch";

// Route modules reach the pool module, marked server-only.
vi.mock("server-only", () => ({}));

let fixture: TConsoleFixture;

beforeAll(async () => {
  fixture = await startConsoleFixture();
});

afterAll(async () => {
  await fixture.stop();
});

function client(token: string) {
  return createClient<paths>({
    baseUrl: "http://console.test",
    headers: { authorization: `Bearer ${token}` },
    // In process, through the proxy and route files, instead of a socket.
    fetch: dispatchToRoutes,
  });
}

it("lists, fires and pauses a trigger with typed calls, and reads a typed error", async () => {
  const api = client(fixture.tokens.operator);
  const tenant = { t: "default" };
  const list = await api.GET("/api/v1/tenants/{t}/triggers", {
    params: { path: tenant, query: { limit: 10 } },
  });
  expect(list.data?.items.map((item) => item.trigger_name).sort()).toEqual(["nightly", "retired"]);

  const nightly = { t: "default", name: "nightly" };
  const fired = await api.POST("/api/v1/tenants/{t}/triggers/{name}/fire", {
    params: { path: nightly },
    body: { event: { region: "eu" } },
  });
  expect(fired.data?.executions[0]?.workflow_name).toBe("review");

  // Cloacina's path, the same handler.
  const paused = await api.POST("/v1/tenants/{t}/triggers/{name}/pause", {
    params: { path: { t: "public", name: "nightly" } },
  });
  expect(paused.data).toMatchObject({ status: "paused", paused: true });

  const missing = await api.GET("/api/v1/tenants/{t}/triggers/{name}", {
    params: { path: { t: "default", name: "nothing" } },
  });
  expect(missing.response.status).toBe(404);
  expect(missing.error?.code).toBe("trigger_not_found");
});

it("creates a dynamic actor and reads it back", async () => {
  const api = client(fixture.tokens.admin);
  const created = await api.POST("/api/v1/tenants/{t}/actors", {
    params: { path: { t: "default" } },
    body: {
      identifier: "reporter",
      expectations: [{ id: "daily", strategy: "summarise", trigger: { schedule: "0 9 * * *" } }],
    },
  });
  expect(created.response.status).toBe(201);
  const read = await api.GET("/api/v1/tenants/{t}/actors/{name}", {
    params: { path: { t: "default", name: "reporter" } },
  });
  expect(read.data?.actor.enabled).toBe(true);
  expect(read.data?.actor.maxConcurrentEpisodes).toBe(3);
});
