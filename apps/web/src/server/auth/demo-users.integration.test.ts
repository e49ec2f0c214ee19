import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN_EMAIL, DEMO_OPERATOR_EMAIL, ensureDemoAccountsAt } from "./demo-users";
import { signIn } from "./sign-in";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

describe("ensureDemoAccountsAt (pnpm start)", () => {
  it("creates the demo operator and admin, who sign in with the printed passwords", async () => {
    const accounts = await ensureDemoAccountsAt(database.url);
    expect(accounts.admin.email).toBe(DEMO_ADMIN_EMAIL);
    expect(accounts.operator.email).toBe(DEMO_OPERATOR_EMAIL);
    for (const [role, account] of Object.entries(accounts)) {
      const result = await signIn({
        db: database.pool,
        input: { email: account.email, password: account.password },
        ip: null,
        userAgent: null,
      });
      expect(result).toMatchObject({ ok: true, principal: { role } });
    }
  });
});
