// The console accounts of the e2e run, one per role, with known passwords. Created through the
// console's own `ensureUser` in core (argon2id hashes, as sign-up through the admin page would
// store).
import pg from "pg";
import { ensureUser } from "../../packages/core/src/users/index";

export const E2E_ROLES = ["viewer", "operator", "admin"] as const;
export type TE2eRole = (typeof E2E_ROLES)[number];

export const E2E_PASSWORD = "e2e-password-not-secret";

export function e2eUserEmail(role: TE2eRole): string {
  return `${role}@e2e.cyclium.local`;
}

export async function seedE2eUsers(databaseUrl: string): Promise<void> {
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    for (const role of E2E_ROLES) {
      await ensureUser({
        db,
        email: e2eUserEmail(role),
        name: `E2E ${role}`,
        password: E2E_PASSWORD,
        role,
      });
    }
  } finally {
    await db.end();
  }
}
