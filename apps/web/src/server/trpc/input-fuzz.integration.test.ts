/**
 * Walks every tRPC procedure (through the same HTTP layer as /api/trpc) and every REST endpoint
 * with generated bad input: wrong types, NUL, lone surrogates, invalid UTF-8, huge and deeply
 * nested bodies, malformed and mis-typed cursors, unknown fields. Never a 5xx: always a readable
 * 4xx (or an answer), as issue 13 requires.
 */
import {
  defineTrigger,
  defineWorkflow,
  TriggerRegistry,
  TriggerScheduler,
  type WorkflowStarter,
  WorkflowRegistry,
  createApiToken,
} from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPrincipal } from "../auth/principal";
import { seedTestUsers, testContext, type TTestUsers } from "../auth/testing/auth-test-kit";
import { createTriggerEndpoints } from "../rest/trigger-endpoints";
import { handleTrpcHttpRequest, MAX_BATCH_SIZE } from "./http-handler";
import { appRouter } from "./root-router";

let database: TestDatabase;
let users: TTestUsers;
let adminToken: string;

const workflows = new WorkflowRegistry().register(
  defineWorkflow({
    name: "review",
    steps: [{ name: "check", actor: "resource_monitor", expectation: "check_resource_limits" }],
  }),
);
const triggers = new TriggerRegistry().register(
  defineTrigger({ name: "nightly", on: "review", cron: "0 2 * * *", timezone: "UTC" }),
);
const startWorkflow: WorkflowStarter = () => Promise.resolve({ instanceId: crypto.randomUUID() });

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  await new TriggerScheduler({
    db: database.pool,
    env: null,
    node: "n",
    triggers,
    workflows,
    startWorkflow,
  }).register();
  adminToken = (
    await createApiToken({ db: database.pool, name: "fuzz", role: "admin", createdBy: null })
  ).token;
});

afterAll(async () => {
  await database.drop();
});

function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

const cursorOf = (at: string, id: string) => Buffer.from(`${at}_${id}`).toString("base64url");
const BAD_CURSORS = [
  cursorOf("2026-02-30T10:00:00.000000", "0195b6a4-0000-7000-8000-000000000000"),
  cursorOf("2026-11-29T10:00:00.000000", "not-a-uuid-or-number"),
  cursorOf("2026-11-29T10:00:00.000000", "99999999999999999999"),
  cursorOf("0000-01-01T00:00:00.000000", "1"),
  "garbage!",
  "",
  "\u0000",
];

const BAD_VALUES: unknown[] = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  12345,
  true,
  {},
  ["x"],
  "x".repeat(70_000),
  nested(40),
  "",
  -1,
];

/** Input nested 5,000 deep, as JSON text: JSON.stringify itself overflows on such a value. */
const DEEP = Symbol("nested 5000 deep");
const DEEP_JSON = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;

const BAD_INPUTS: unknown[] = [
  "just a string",
  42,
  true,
  [],
  [1, 2],
  DEEP,
  { zzzUnknownField: 1 },
  { "\u0000": 1 },
  {},
];

interface TProcedureInfo {
  path: string;
  type: "query" | "mutation";
  keys: string[];
}

/** The top-level keys of a procedure's input schema (zod object, possibly optional). */
function inputKeys(procedure: unknown): string[] {
  const inputs = (procedure as { _def: { inputs: unknown[] } })._def.inputs;
  const keys = new Set<string>();
  for (const input of inputs) {
    let schema = input as { def?: { type?: string; innerType?: unknown }; shape?: object };
    while (schema.def?.type === "optional" || schema.def?.type === "nullable") {
      schema = schema.def.innerType as typeof schema;
    }
    for (const key of Object.keys(schema.shape ?? {})) keys.add(key);
  }
  return [...keys];
}

const procedures: TProcedureInfo[] = Object.entries(
  appRouter._def.procedures as Record<string, unknown>,
)
  .map(([path, procedure]) => ({
    path,
    type: (procedure as { _def: { type: "query" | "mutation" } })._def.type,
    keys: inputKeys(procedure),
  }))
  .filter((procedure) => procedure.type === "query" || procedure.type === "mutation");

function badInputsFor(procedure: TProcedureInfo): unknown[] {
  const inputs = [...BAD_INPUTS];
  for (const key of procedure.keys) {
    for (const value of BAD_VALUES) inputs.push({ [key]: value });
  }
  if (procedure.keys.includes("cursor")) {
    for (const cursor of BAD_CURSORS) inputs.push({ cursor });
  }
  return inputs;
}

interface TTrpcAnswer {
  status: number;
  items: { error?: { message: unknown; data?: { code?: unknown; httpStatus?: unknown } } }[];
}

/** One batched HTTP call of `inputs` to `procedure`, as the browser's batch link sends it. */
async function callBatch(
  procedure: TProcedureInfo,
  inputs: unknown[],
  principal: TPrincipal | null = users.admin,
): Promise<TTrpcAnswer> {
  const paths = inputs.map(() => procedure.path).join(",");
  const body = `{${inputs
    .map(
      (input, index) =>
        `"${index}":${input === DEEP ? DEEP_JSON : (JSON.stringify(input) ?? "null")}`,
    )
    .join(",")}}`;
  const url = `http://console.test/api/trpc/${paths}?batch=1`;
  const request =
    procedure.type === "query"
      ? new Request(`${url}&input=${encodeURIComponent(body)}`)
      : new Request(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
  const response = await handleTrpcHttpRequest(
    request,
    () => Promise.resolve(testContext(database.pool, principal)),
    () => database.pool,
  );
  const json = (await response.json()) as TTrpcAnswer["items"] | TTrpcAnswer["items"][number];
  return { status: response.status, items: Array.isArray(json) ? json : [json] };
}

function unreadable(item: TTrpcAnswer["items"][number]): string | null {
  const error = item.error;
  if (error === undefined) return null;
  const status = Number(error.data?.httpStatus);
  // The one 5xx that is an answer, not a failure: an action that needs the console's own node
  // (a recovery sweep) while this process runs none, as here.
  const noNode = status === 503 && error.data?.code === "SERVICE_UNAVAILABLE";
  if (!(status >= 400 && status < 500) && !noNode)
    return `status ${String(error.data?.httpStatus)}`;
  if (error.data?.code === "INTERNAL_SERVER_ERROR") return "INTERNAL_SERVER_ERROR";
  if (typeof error.message !== "string" || error.message.length === 0) return "no message";
  // A JSON dump of zod issues is what the old formatter answered.
  if (/^\s*[[{]/.test(error.message)) return `raw message ${error.message.slice(0, 80)}`;
  if (/Maximum call stack/.test(error.message)) return "stack overflow";
  return null;
}

describe("tRPC fuzz: every procedure, bad input", () => {
  it("walks the router", () => {
    expect(procedures.length).toBeGreaterThan(20);
    expect(procedures.some((procedure) => procedure.keys.includes("cursor"))).toBe(true);
  });

  it("answers every bad input with a readable 4xx, never a 5xx", async () => {
    const failures: string[] = [];
    let calls = 0;
    let refusedInputs = 0;
    const counts = () =>
      database.pool
        .query<{ users: number; tokens: number; refusals: number }>(
          `SELECT (SELECT count(*)::int FROM cyclium_users) AS users,
                  (SELECT count(*)::int FROM cyclium_api_tokens) AS tokens,
                  (SELECT count(*)::int FROM cyclium_audit_log
                    WHERE outcome = 'refused' AND detail->>'reason' = 'invalid_input') AS refusals`,
        )
        .then((result) => result.rows[0]);
    const before = await counts();
    for (const procedure of procedures) {
      const inputs = badInputsFor(procedure);
      for (let start = 0; start < inputs.length; start += MAX_BATCH_SIZE) {
        const chunk = inputs.slice(start, start + MAX_BATCH_SIZE);
        const answer = await callBatch(procedure, chunk);
        calls += chunk.length;
        if (answer.status >= 500) failures.push(`${procedure.path}: HTTP ${answer.status}`);
        answer.items.forEach((item, index) => {
          if (item.error?.data?.code === "BAD_REQUEST") refusedInputs += 1;
          const problem = unreadable(item);
          if (problem !== null) {
            const input =
              chunk[index] === DEEP ? "DEEP" : JSON.stringify(chunk[index])?.slice(0, 60);
            failures.push(`${procedure.path} ${input}: ${problem}`);
          }
        });
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(500);
    // No partial write: no user or token came out of it. Every refused input, reads included,
    // left exactly one audit row (the caller is signed in, so the anonymous cap does not apply).
    const after = await counts();
    expect(after?.users).toBe(before?.users);
    expect(after?.tokens).toBe(before?.tokens);
    expect(refusedInputs).toBeGreaterThan(100);
    expect((after?.refusals ?? 0) - (before?.refusals ?? 0)).toBe(refusedInputs);
  });

  it("names the field holding a NUL byte, and reads zod errors as text", async () => {
    const list = procedures.find((procedure) => procedure.path === "episodes.list");
    if (list === undefined) throw new Error("episodes.list not found");
    const answer = await callBatch(list, [{ actorId: "a\u0000" }, { limit: "ten" }]);
    expect(answer.items[0]?.error?.message).toMatch(/actorId.*NUL/);
    expect(answer.items[1]?.error?.message).toMatch(/^Invalid input: .*\n?.*limit/s);
  });

  it(`refuses a batch of more than ${MAX_BATCH_SIZE} calls before running any`, async () => {
    const session = procedures.find((procedure) => procedure.path === "auth.session");
    if (session === undefined) throw new Error("auth.session not found");
    const answer = await callBatch(session, Array(MAX_BATCH_SIZE + 1).fill(undefined), null);
    expect(answer.status).toBe(400);
  });

  it("marks every answer no-store and nosniff", async () => {
    const response = await handleTrpcHttpRequest(
      new Request("http://console.test/api/trpc/auth.session"),
      () => Promise.resolve(testContext(database.pool, users.viewer)),
      () => database.pool,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("REST fuzz: every endpoint, bad input", () => {
  const services = { startWorkflow, triggers, workflows };
  const endpoints = createTriggerEndpoints({
    getDb: () => database.pool,
    getTriggerServices: () => services,
  });
  const routes = [
    { name: "list", handler: endpoints.list, method: "GET", path: "" },
    { name: "inspect", handler: endpoints.inspect, method: "GET", path: "/nightly" },
    { name: "fire", handler: endpoints.fire, method: "POST", path: "/nightly/fire" },
    { name: "pause", handler: endpoints.pause, method: "POST", path: "/nightly/pause" },
    { name: "resume", handler: endpoints.resume, method: "POST", path: "/nightly/resume" },
  ] as const;
  const PARAMS: Record<string, string>[] = [
    { t: "\u0000", name: "nightly" },
    { t: "default", name: "night\u0000ly" },
    { t: "default", name: "\ud800" },
    { t: "x".repeat(5000), name: "nightly" },
    { t: "default", name: "" },
  ];
  const QUERIES = [
    "?limit=abc",
    "?limit=-1",
    "?offset=1e400",
    "?zzz=1",
    "?limit=%00",
    "?firings=%ED%A0%80",
  ];
  const BODIES: BodyInit[] = [
    "{",
    "[]",
    '"str"',
    "null",
    `${"[".repeat(5000)}${"]".repeat(5000)}`,
    `{"context":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`,
    new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    JSON.stringify({ context: { note: "x".repeat(100_000) } }),
    JSON.stringify({ context: { "a\u0000": "\u0000" } }),
    JSON.stringify({ context: "not an object", zzzUnknown: 1 }),
  ];

  async function send(
    route: (typeof routes)[number],
    params: Record<string, string>,
    query = "",
    body?: BodyInit,
  ): Promise<string | null> {
    const url = `http://console.test/api/v1/tenants/${encodeURIComponent(params.t ?? "")}/triggers${route.path}${query}`;
    const response = await route.handler(
      new Request(url, {
        method: route.method,
        headers: { authorization: `Bearer ${adminToken}` },
        ...(route.method === "POST" && body !== undefined ? { body } : {}),
      }),
      { params: Promise.resolve(params) },
    );
    const text = await response.text();
    const what = `${route.name} ${JSON.stringify(params).slice(0, 50)} ${query}`;
    if (response.status >= 500) return `${what}: HTTP ${response.status} ${text.slice(0, 80)}`;
    if (response.status >= 400) {
      const json = JSON.parse(text) as { error?: unknown; code?: unknown };
      if (typeof json.error !== "string" || typeof json.code !== "string") {
        return `${what}: unreadable ${text.slice(0, 80)}`;
      }
    }
    return null;
  }

  it("answers every bad param, query and body with a readable 4xx, never a 5xx", async () => {
    const failures: (string | null)[] = [];
    const good = { t: "default", name: "nightly" };
    for (const route of routes) {
      for (const params of PARAMS) failures.push(await send(route, params));
      for (const query of QUERIES) failures.push(await send(route, good, query));
      if (route.method === "POST") {
        for (const body of BODIES) failures.push(await send(route, good, "", body));
      }
    }
    expect(failures.filter((failure) => failure !== null)).toEqual([]);
  });

  it("names the field holding a NUL byte", async () => {
    const response = await endpoints.fire(
      new Request("http://console.test/api/v1/tenants/default/triggers/nightly/fire", {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({ context: { note: "a\u0000" } }),
      }),
      { params: Promise.resolve({ t: "default", name: "nightly" }) },
    );
    expect(response.status).toBe(400);
    const json = (await response.json()) as { code: string; error: string };
    expect(json.code).toBe("invalid_input");
    expect(json.error).toMatch(/context\.note.*NUL/);
  });
});
