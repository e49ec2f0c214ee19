// The console accounts of the e2e run, one per role, with known passwords. Created through the
// console's own `ensureUser` in core with the console's Argon2id hash (apps/web), as sign-up
// through the admin page would store.
import pg from "pg";
import { hashPassword } from "../../apps/web/src/server/auth/password-hash";
import { ensureUser } from "../../packages/core/src/console/users/index";

export const E2E_ROLES = ["viewer", "operator", "admin"] as const;
export type TE2eRole = (typeof E2E_ROLES)[number];

export const E2E_PASSWORD = "e2e-password-not-secret";

export function e2eUserEmail(role: TE2eRole): string {
  return `${role}@e2e.cyclium.local`;
}

export async function seedE2eUsers(databaseUrl: string): Promise<void> {
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const passwordHash = await hashPassword(E2E_PASSWORD);
    for (const role of E2E_ROLES) {
      await ensureUser({
        db,
        email: e2eUserEmail(role),
        name: `E2E ${role}`,
        passwordHash,
        role,
      });
    }
  } finally {
    await db.end();
  }
}
