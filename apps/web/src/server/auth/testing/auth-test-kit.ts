// Test helpers: known users of every role and tRPC contexts for them, against a test database.
import type pg from "pg";
import type { TNodeInfo } from "../../node-info";
import type { TTrpcContext } from "../../trpc/init";
import type { TPrincipal, TRole } from "../principal";
import type { TRequestInfo } from "../request-info";
import { listAuditEntries, ensureUser } from "@cyclium/core/console";
import { hashPassword } from "../password-hash";

export const TEST_PASSWORD = "correct horse battery staple";

export type TTestUsers = Record<TRole, TPrincipal>;

export async function seedTestUsers(db: pg.Pool): Promise<TTestUsers> {
  const seeded = {} as TTestUsers;
  const passwordHash = await hashPassword(TEST_PASSWORD);
  for (const role of ["viewer", "operator", "admin"] as const) {
    const email = `${role}@test.local`;
    const user = await ensureUser({
      db,
      email,
      name: `Test ${role}`,
      passwordHash,
      role,
    });
    seeded[role] = { kind: "user", id: user.id, name: email, role };
  }
  return seeded;
}

export const TEST_NODE: TNodeInfo = {
  identity: "web-test",
  mode: "trigger_only",
  env: null,
  stack: null,
};

export function testContext(
  db: pg.Pool,
  principal: TPrincipal | null,
  request: Partial<TRequestInfo> = {},
): TTrpcContext {
  return {
    db,
    node: TEST_NODE,
    principal,
    request: { ip: "127.0.0.1", userAgent: "vitest", origin: "same", ...request },
  };
}

export async function auditRows(
  db: pg.Pool,
  action: string,
): Promise<
  { principal: string; outcome: string; target: string | null; detail: Record<string, unknown> }[]
> {
  // Through core's list (newest first, action as a prefix), oldest first and exact, as before.
  const { items } = await listAuditEntries({ db, filters: { action }, limit: 200 });
  return items
    .filter((item) => item.action === action)
    .reverse()
    .map(({ principal, outcome, target, detail }) => ({ principal, outcome, target, detail }));
}
