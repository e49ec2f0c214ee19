import { findUserCredentials } from "@cyclium/core/console";
// The console's hash (the demo package does not depend on argon2; `pnpm start` passes it in).
import { hashPassword, verifyPassword } from "../../../apps/web/src/server/auth/password-hash";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_ADMIN_EMAIL,
  DEMO_OPERATOR_EMAIL,
  ensureDemoAccountsAt,
  ensureDemoOperator,
} from "./demo-accounts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

/** What a sign-in checks: the stored role, and whether the password matches the stored hash. */
async function check(email: string, password: string) {
  const credentials = await findUserCredentials({ db: database.pool, email });
  if (credentials === undefined) return { found: false };
  return {
    found: true,
    role: credentials.role,
    disabled: credentials.disabledAt !== null,
    matches: await verifyPassword(credentials.passwordHash, password),
  };
}

describe("the demo accounts (pnpm start)", () => {
  it("creates the demo operator and admin with the printed passwords", async () => {
    const accounts = await ensureDemoAccountsAt(database.url, hashPassword);
    expect(accounts.admin.email).toBe(DEMO_ADMIN_EMAIL);
    expect(accounts.operator.email).toBe(DEMO_OPERATOR_EMAIL);
    for (const [role, account] of Object.entries(accounts)) {
      await expect(check(account.email, account.password)).resolves.toEqual({
        found: true,
        role,
        disabled: false,
        matches: true,
      });
    }
  });

  it("gives the operator a new password on every start, which replaces the last", async () => {
    const first = await ensureDemoOperator(database.pool, hashPassword);
    const second = await ensureDemoOperator(database.pool, hashPassword);
    expect(second.email).toBe(DEMO_OPERATOR_EMAIL);
    expect(second.password).not.toBe(first.password);
    await expect(check(DEMO_OPERATOR_EMAIL, first.password)).resolves.toMatchObject({
      matches: false,
    });
    await expect(check(DEMO_OPERATOR_EMAIL, second.password)).resolves.toMatchObject({
      role: "operator",
      matches: true,
    });
  });
});
