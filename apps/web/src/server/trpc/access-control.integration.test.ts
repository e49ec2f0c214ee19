import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditRows,
  seedTestUsers,
  testContext,
  type TTestUsers,
} from "../auth/testing/auth-test-kit";
import { PUBLIC_PROCEDURES } from "./init";
import { appRouter, createCaller } from "./root-router";

let database: TestDatabase;
let users: TTestUsers;

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
});

afterAll(async () => {
  await database.drop();
});

type TProcedureCall = (input?: unknown) => Promise<unknown>;

/** The caller is a proxy keyed by path segments: `caller.admin.users.list`. */
function procedureAt(caller: unknown, path: string): TProcedureCall {
  let node = caller;
  for (const segment of path.split(".")) node = (node as Record<string, unknown>)[segment];
  return node as TProcedureCall;
}

const procedures = Object.entries(appRouter._def.procedures as Record<string, unknown>).map(
  ([path, procedure]) => ({
    path,
    type: (procedure as { _def: { type: "query" | "mutation" | "subscription" } })._def.type,
  }),
);

async function errorOf(call: Promise<unknown>): Promise<TRPCError | "answered"> {
  try {
    await call;
    return "answered";
  } catch (error) {
    if (error instanceof TRPCError) return error;
    throw error;
  }
}

describe("the router walk", () => {
  it("finds the procedures (the walk itself works)", () => {
    expect(procedures.length).toBeGreaterThan(5);
    expect(procedures.map((procedure) => procedure.path)).toContain("admin.users.create");
  });

  it("lists only public procedures that exist", () => {
    const paths = new Set(procedures.map((procedure) => procedure.path));
    for (const path of PUBLIC_PROCEDURES) expect(paths).toContain(path);
  });

  it("refuses every procedure outside the public allowlist to an anonymous caller", async () => {
    const anonymous = createCaller(testContext(database.pool, null));
    const answered: string[] = [];
    for (const { path } of procedures) {
      if (PUBLIC_PROCEDURES.has(path)) continue;
      // No input on purpose: authorization runs before input validation, so even a call the
      // procedure would reject as malformed must be refused as unauthenticated first.
      const outcome = await errorOf(procedureAt(anonymous, path)());
      if (outcome === "answered" || outcome.code !== "UNAUTHORIZED") {
        answered.push(`${path}: ${outcome === "answered" ? "answered" : outcome.code}`);
      }
    }
    expect(answered).toEqual([]);
  });

  it("refuses every mutation from another origin, even for an admin", async () => {
    const crossSite = createCaller(testContext(database.pool, users.admin, { origin: "cross" }));
    const scripted = createCaller(testContext(database.pool, users.admin, { origin: "unknown" }));
    for (const { path, type } of procedures) {
      if (type !== "mutation") continue;
      expect(await errorOf(procedureAt(crossSite, path)())).toMatchObject({ code: "FORBIDDEN" });
      expect(await errorOf(procedureAt(scripted, path)())).toMatchObject({ code: "FORBIDDEN" });
    }
    const refusals = await auditRows(database.pool, "admin.users.create");
    expect(refusals).toContainEqual(
      expect.objectContaining({
        principal: "user:admin@test.local",
        outcome: "refused",
        detail: expect.objectContaining({ reason: "cross_origin" }) as unknown,
      }),
    );
  });
});

describe("roles", () => {
  it("lets a viewer read but not administer", async () => {
    const viewer = createCaller(testContext(database.pool, users.viewer));
    await expect(viewer.overview.stats()).resolves.toMatchObject({ env: null });
    await expect(viewer.admin.users.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      viewer.admin.tokens.create({ name: "sneaky", role: "admin" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const refusals = await auditRows(database.pool, "admin.tokens.create");
    expect(refusals).toContainEqual(
      expect.objectContaining({
        principal: "user:viewer@test.local",
        outcome: "refused",
        detail: expect.objectContaining({ reason: "role", required: "admin" }) as unknown,
      }),
    );
  });

  it("audits anonymous attempts to change state", async () => {
    const anonymous = createCaller(testContext(database.pool, null));
    await expect(
      anonymous.admin.users.setRole({ userId: users.viewer.id, role: "admin" }),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await auditRows(database.pool, "admin.users.setRole")).toContainEqual(
      expect.objectContaining({ principal: "anonymous", outcome: "refused" }),
    );
  });

  it("answers auth.session anonymously with null", async () => {
    await expect(createCaller(testContext(database.pool, null)).auth.session()).resolves.toBeNull();
  });
});
