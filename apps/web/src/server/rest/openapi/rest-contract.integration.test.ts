// Issue 29's contract test: every operation of the OpenAPI document is called, with a 2xx and a
// 4xx answer, against real PostgreSQL, through the console's proxy and its route files as Next.js
// would call them (testing/route-dispatch.ts); each answer's status and body are checked against
// the document (ajv). It also fails when a route file serves a method the document does not list.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PEER_ADDRESS_HEADER } from "../../auth/client-address";
import { REFUSALS_PER_MINUTE } from "../../auth/refusal-limiter";
import {
  buildOpenApiDocument,
  OPENAPI_DOCUMENT_PATH,
  prefixedOperationId,
  REST_PREFIXES,
} from "./openapi-document";
import { startConsoleFixture, type TConsoleFixture } from "./testing/console-fixture";
import { createDocumentValidator } from "./testing/document-validator";
import { dispatchToRoutes } from "./testing/route-dispatch";
import { listRouteFiles } from "./testing/route-files";

// Route modules reach the pool module, marked server-only.
vi.mock("server-only", () => ({}));

const document = buildOpenApiDocument();
const validator = createDocumentValidator(document);
/** `operationId` -> the status classes it answered, e.g. `2xx`, `4xx`. */
const answered = new Map<string, Set<string>>();

let fixture: TConsoleFixture;

beforeAll(async () => {
  fixture = await startConsoleFixture();
});

afterAll(async () => {
  await fixture.stop();
});

interface TCall {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  token?: keyof TConsoleFixture["tokens"] | null;
  /** The caller's address, as the server's peer hook sets it (auth/client-address.ts). */
  peer?: string;
}

/** Calls an operation by its id and checks the answer against the document. */
async function call(operationId: string, options: TCall = {}) {
  const operation = validator.operations.get(operationId);
  if (operation === undefined) throw new Error(`No operation ${operationId}`);
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(options.params?.[name] ?? ""),
  );
  const url = new URL(`http://console.test${path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const headers = new Headers();
  const token = options.token === undefined ? "admin" : options.token;
  if (token !== null) headers.set("authorization", `Bearer ${fixture.tokens[token]}`);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  if (options.peer !== undefined) headers.set(PEER_ADDRESS_HEADER, options.peer);
  const response = await dispatchToRoutes(
    new Request(url, {
      method: operation.method.toUpperCase(),
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    }),
  );
  const answer = await validator.check(operationId, response);
  const classes = answered.get(operationId) ?? new Set();
  classes.add(`${String(answer.status)[0]}xx`);
  answered.set(operationId, classes);
  return answer as { status: number; body: Record<string, unknown> };
}

describe("the OpenAPI document and the route files", () => {
  it("lists an operation for every method each route file serves, and no other", () => {
    const fromRoutes = listRouteFiles()
      .filter((route) => !route.catchAll)
      .flatMap((route) => route.methods.map((method) => `${method} ${route.template}`));
    const documented = [...validator.operations.values()].map(
      ({ method, path }) =>
        // Cloacina's `/v1/...` is served by the `/api/v1/...` route file (the proxy's rewrite).
        `${method.toUpperCase()} ${path.startsWith("/api/") ? path : `/api${path}`}`,
    );
    expect(fromRoutes.length).toBeGreaterThan(10);
    for (const route of fromRoutes) {
      expect(documented, `${route} has a route file but no operation in the document`).toContain(
        route,
      );
    }
    for (const operation of documented) {
      expect(fromRoutes, `${operation} is in the document but no route file serves it`).toContain(
        operation,
      );
    }
  });

  it("serves itself at GET /api/v1/openapi.json, without a credential", async () => {
    const { status, body } = await call("getOpenApiDocument", { token: null });
    expect(status).toBe(200);
    expect(body).toEqual(document);
    expect(OPENAPI_DOCUMENT_PATH).toBe("/api/v1/openapi.json");
  });

  it("refuses an answer the document does not describe", async () => {
    const wrongShape = Response.json({ tenant_id: "default", items: [{}], total: 1 });
    wrongShape.headers.set("x-request-id", "r");
    await expect(validator.check("listActors", wrongShape)).rejects.toThrow(
      /does not match the document/,
    );
    const undocumented = Response.json({ error: "x", code: "gone" }, { status: 410 });
    await expect(validator.check("listActors", undocumented)).rejects.toThrow(
      /status not in the document/,
    );
  });
});

describe.each(REST_PREFIXES)("every operation under $prefix", ({ prefix, operationIdPrefix }) => {
  const id = (name: string) => prefixedOperationId(operationIdPrefix, name);
  // Both prefixes address the unset env (`default` is ours, `public` Cloacina's).
  const t = prefix === "/v1" ? "public" : "default";
  const actor = prefix === "/v1" ? "reporter-v1" : "reporter-api";
  const definition = {
    identifier: actor,
    expectations: [{ id: "daily", strategy: "summarise", trigger: { schedule: "0 9 * * *" } }],
  };
  const named = { t, name: actor };
  const unknown = { t, name: "nobody" };

  it("dynamic actors", async () => {
    expect((await call(id("createActor"), { params: { t }, body: definition })).status).toBe(201);
    expect((await call(id("createActor"), { params: { t }, body: definition })).status).toBe(409);
    expect(
      (await call(id("createActor"), { params: { t }, body: { identifier: actor } })).body,
    ).toMatchObject({ code: "invalid_input" });
    const clash = { ...definition, identifier: "resource_monitor" };
    expect((await call(id("createActor"), { params: { t }, body: clash })).status).toBe(409);
    const asViewer = { params: { t }, body: definition, token: "viewer" as const };
    expect((await call(id("createActor"), asViewer)).body).toMatchObject({ code: "forbidden" });

    const list = await call(id("listActors"), { params: { t }, token: "viewer" });
    // Both prefixes' actors live in the unset env.
    expect(list.body.items).toContainEqual(expect.objectContaining({ identifier: actor }));
    expect((await call(id("listActors"), { params: { t }, token: null })).status).toBe(401);
    expect(
      (await call(id("listActors"), { params: { t }, token: "otherTenant" })).body,
    ).toMatchObject({ code: "tenant_access_denied" });

    expect((await call(id("getActor"), { params: named, token: "viewer" })).status).toBe(200);
    expect((await call(id("getActor"), { params: unknown })).status).toBe(404);
    expect((await call(id("getActor"), { params: { t, name: "x".repeat(300) } })).status).toBe(400);

    const patch = { maxConcurrentEpisodes: 5 };
    expect((await call(id("updateActor"), { params: named, body: patch })).body).toMatchObject({
      actor: { maxConcurrentEpisodes: 5 },
    });
    expect((await call(id("updateActor"), { params: unknown, body: patch })).status).toBe(404);
    const rename = { identifier: "renamed" };
    expect((await call(id("updateActor"), { params: named, body: rename })).status).toBe(400);

    expect(
      (await call(id("replaceActor"), { params: named, body: definition })).body,
    ).toMatchObject({ actor: { maxConcurrentEpisodes: 3 } });
    const other = { ...definition, identifier: "someone-else" };
    expect((await call(id("replaceActor"), { params: named, body: other })).status).toBe(400);
    expect(
      (
        await call(id("replaceActor"), {
          params: unknown,
          body: { ...definition, identifier: "nobody" },
        })
      ).status,
    ).toBe(404);

    for (const [verb, enabled] of [
      ["disableActor", false],
      ["enableActor", true],
    ] as const) {
      expect((await call(id(verb), { params: named })).body).toMatchObject({ actor: { enabled } });
      expect((await call(id(verb), { params: unknown })).status).toBe(404);
      expect((await call(id(verb), { params: named, token: "operator" })).status).toBe(403);
    }
  });

  it("triggers", async () => {
    const nightly = { t, name: "nightly" };
    const missing = { t, name: "nothing" };
    const list = await call(id("listTriggers"), {
      params: { t },
      query: { limit: "1" },
      token: "viewer",
    });
    expect(list.body).toMatchObject({ tenant_id: t, total: 2 });
    expect(
      (await call(id("listTriggers"), { params: { t }, query: { limit: "0" } })).body,
    ).toMatchObject({ code: "invalid_pagination" });
    expect((await call(id("listTriggers"), { params: { t }, token: null })).body).toMatchObject({
      code: "unauthorized",
    });

    expect(
      (await call(id("fireTrigger"), { params: nightly, body: { event: null }, token: "operator" }))
        .body,
    ).toMatchObject({ trigger: "nightly", fired: 1 });
    expect((await call(id("fireTrigger"), { params: nightly })).status).toBe(200);
    expect((await call(id("fireTrigger"), { params: missing, body: {} })).body).toMatchObject({
      code: "trigger_not_found",
    });
    expect((await call(id("fireTrigger"), { params: nightly, body: { evnt: 1 } })).status).toBe(
      400,
    );
    expect((await call(id("fireTrigger"), { params: { t, name: "retired" } })).status).toBe(409);

    const inspect = await call(id("inspectTrigger"), { params: nightly, query: { firings: "5" } });
    expect(inspect.body).toMatchObject({ schedule: { trigger_name: "nightly" } });
    expect((await call(id("inspectTrigger"), { params: missing })).status).toBe(404);

    expect((await call(id("describeTriggerInterface"), { params: nightly })).body).toMatchObject({
      name: "nightly",
    });
    expect((await call(id("describeTriggerInterface"), { params: missing })).status).toBe(404);

    expect(
      (await call(id("pauseTrigger"), { params: nightly, token: "operator" })).body,
    ).toMatchObject({ status: "paused", paused: true });
    expect((await call(id("pauseTrigger"), { params: nightly, token: "viewer" })).status).toBe(403);
    expect((await call(id("resumeTrigger"), { params: nightly })).body).toMatchObject({
      status: "resumed",
    });
    expect((await call(id("resumeTrigger"), { params: missing })).status).toBe(404);
  });

  it("episodes: why one waits", async () => {
    const { rows } = await fixture.database.pool.query<{ id: string }>(
      `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
       VALUES ('resource_monitor', 'check_resource_limits', 'pending', 'manual')
       RETURNING id::text`,
    );
    const episode = { t, id: rows[0]?.id ?? "" };
    const answer = await call(id("episodeWaitReason"), { params: episode, token: "viewer" });
    expect(answer.body).toMatchObject({ status: "pending", wait_reason: { code: "waiting" } });
    const none = { t, id: "00000000-0000-4000-8000-000000000000" };
    expect((await call(id("episodeWaitReason"), { params: none })).status).toBe(404);
  });

  it("episodes: a signal", async () => {
    const { rows } = await fixture.database.pool.query<{ id: string }>(
      `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
       VALUES ('approver', 'run', 'pending', 'manual') RETURNING id`,
    );
    const episode = { t, id: rows[0]!.id, name: "approval" };
    const signal = (body: unknown, token: "operator" | "viewer" = "operator") =>
      call(id("signalEpisode"), { params: episode, body, token });
    expect((await signal({ payload: { approved: true }, idempotencyKey: "k" })).body).toMatchObject(
      { kind: "delivered", woke: false },
    );
    expect((await signal({ payload: { approved: true }, idempotencyKey: "k" })).body).toMatchObject(
      { kind: "duplicate" },
    );
    expect((await signal({ payload: { approved: "yes" } })).status).toBe(400);
    expect((await signal({ payload: { approved: true } }, "viewer")).status).toBe(403);
    const missing = { ...episode, id: crypto.randomUUID() };
    const notFound = await call(id("signalEpisode"), {
      params: missing,
      body: { payload: { approved: true } },
    });
    expect(notFound.status).toBe(404);
  });
});

it("answers 429 with Retry-After once an address spent its refusals", async () => {
  const anonymous = { params: { t: "default" }, token: null, peer: "203.0.113.7" };
  for (let refused = 0; refused < REFUSALS_PER_MINUTE; refused++) {
    expect((await call("listTriggers", anonymous)).status).toBe(401);
  }
  const blocked = await call("listTriggers", anonymous);
  expect(blocked).toMatchObject({ status: 429, body: { code: "too_many_refusals" } });
});

it("called every operation in the document with a 2xx and a 4xx answer", () => {
  for (const operationId of validator.operations.keys()) {
    const expected = operationId === "getOpenApiDocument" ? ["2xx"] : ["2xx", "4xx"];
    expect([...(answered.get(operationId) ?? [])].sort(), operationId).toEqual(expected);
  }
});
