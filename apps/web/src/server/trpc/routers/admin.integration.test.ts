import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditRows,
  seedTestUsers,
  testContext,
  type TTestUsers,
} from "../../auth/testing/auth-test-kit";
import { createCaller } from "../root-router";

let database: TestDatabase;
let users: TTestUsers;
let admin: ReturnType<typeof createCaller>;

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  admin = createCaller(testContext(database.pool, users.admin));
});

afterAll(async () => {
  await database.drop();
});

describe("admin.users", () => {
  it("creates a user and records it in the same transaction", async () => {
    const user = await admin.admin.users.create({
      email: "  New.Person@Example.com ",
      name: "New Person",
      password: "a long enough password",
      role: "viewer",
    });
    expect(user).toMatchObject({
      email: "new.person@example.com",
      role: "viewer",
      disabledAt: null,
    });
    expect(await auditRows(database.pool, "admin.users.create")).toEqual([
      expect.objectContaining({
        principal: "user:admin@test.local",
        outcome: "ok",
        target: "new.person@example.com",
      }),
    ]);
  });

  it("answers a duplicate email with CONFLICT and audits the failure", async () => {
    await expect(
      admin.admin.users.create({
        email: "viewer@test.local",
        name: "Again",
        password: "a long enough password",
        role: "viewer",
      }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("already exists") as unknown,
    });
    expect(await auditRows(database.pool, "admin.users.create")).toContainEqual(
      expect.objectContaining({
        outcome: "error",
        detail: expect.objectContaining({ code: "conflict" }) as unknown,
      }),
    );
  });

  it("rejects a short password with a clear message", async () => {
    await expect(
      admin.admin.users.create({
        email: "x@test.local",
        name: "X",
        password: "short",
        role: "viewer",
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("never demotes or disables the last active admin", async () => {
    await expect(
      admin.admin.users.setRole({ userId: users.admin.id, role: "operator" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      admin.admin.users.setDisabled({ userId: users.admin.id, disabled: true }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("disabling a user ends their sessions", async () => {
    await database.pool.query(
      `INSERT INTO cyclium_sessions (id, user_id, expires_at) VALUES ('s-op', $1, now() + interval '1 hour')`,
      [users.operator.id],
    );
    const disabled = await admin.admin.users.setDisabled({
      userId: users.operator.id,
      disabled: true,
    });
    expect(disabled.disabledAt).not.toBeNull();
    const { rowCount } = await database.pool.query(
      `SELECT 1 FROM cyclium_sessions WHERE user_id = $1`,
      [users.operator.id],
    );
    expect(rowCount).toBe(0);
    await admin.admin.users.setDisabled({ userId: users.operator.id, disabled: false });
  });
});

describe("admin.tokens", () => {
  it("shows a new token once and lists only its metadata", async () => {
    const created = await admin.admin.tokens.create({ name: "ci-deploy", role: "operator" });
    expect(created.token).toMatch(/^cyc_[A-Za-z0-9_-]{43}$/);
    const listed = await admin.admin.tokens.list();
    expect(listed).toContainEqual(
      expect.objectContaining({
        name: "ci-deploy",
        role: "operator",
        createdBy: "admin@test.local",
      }),
    );
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const revoked = await admin.admin.tokens.revoke({ tokenId: created.apiToken.id });
    expect(revoked.revokedAt).not.toBeNull();
  });

  it("limits a token to tenants, the unset env under one name (issue 20)", async () => {
    const unlimited = await admin.admin.tokens.create({ name: "all-envs", role: "viewer" });
    expect(unlimited.apiToken.tenants).toEqual([]);
    const limited = await admin.admin.tokens.create({
      name: "staging-and-default",
      role: "viewer",
      tenants: ["staging", "public", "default"],
    });
    expect(limited.apiToken.tenants).toEqual(["default", "staging"]);
    expect(await admin.admin.tokens.list()).toContainEqual(
      expect.objectContaining({ name: "staging-and-default", tenants: ["default", "staging"] }),
    );
    const { rows } = await database.pool.query<{ detail: unknown }>(
      "SELECT detail FROM cyclium_audit_log WHERE action = 'admin.tokens.create' AND target = $1",
      ["staging-and-default"],
    );
    expect(rows[0]?.detail).toMatchObject({ tenants: ["staging", "public", "default"] });
  });

  it("answers an unknown token id with NOT_FOUND", async () => {
    await expect(
      admin.admin.tokens.revoke({ tokenId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "No such API token." });
  });
});
