// The accounts `pnpm start` prints so a first-time user can sign in to the demo's console.
import { generateSecretToken, ensureUser } from "@cyclium/core/console";
import type { Queryable } from "@cyclium/core";
import pg from "pg";

export const DEMO_OPERATOR_EMAIL = "operator@cyclium.local";
export const DEMO_ADMIN_EMAIL = "admin@cyclium.local";

/** The console's password hash (apps/web's password-hash.ts): the demo does not install argon2. */
export type HashPassword = (password: string) => Promise<string>;

/**
 * The account `pnpm start` prints so a first-time user can sign in. A fresh random password on
 * every start: nothing guessable ever ships, and the printed one is always the current one.
 */
export async function ensureDemoOperator(
  db: Queryable,
  hashPassword: HashPassword,
): Promise<{ email: string; password: string }> {
  const password = generateSecretToken().slice(0, 20);
  await ensureUser({
    db,
    email: DEMO_OPERATOR_EMAIL,
    name: "Demo operator",
    passwordHash: await hashPassword(password),
    role: "operator",
  });
  return { email: DEMO_OPERATOR_EMAIL, password };
}

/**
 * The demo admin, fresh password on every start like the operator: without an admin no one could
 * create a viewer or an API token, and REST would be unusable out of the box.
 */
export async function ensureDemoAdmin(
  db: Queryable,
  hashPassword: HashPassword,
): Promise<{ email: string; password: string }> {
  const password = generateSecretToken().slice(0, 20);
  await ensureUser({
    db,
    email: DEMO_ADMIN_EMAIL,
    name: "Demo admin",
    passwordHash: await hashPassword(password),
    role: "admin",
  });
  return { email: DEMO_ADMIN_EMAIL, password };
}

/** `pnpm start`'s two demo accounts: the operator and the admin, each with a fresh password. */
export async function ensureDemoAccountsAt(
  databaseUrl: string,
  hashPassword: HashPassword,
): Promise<{
  operator: { email: string; password: string };
  admin: { email: string; password: string };
}> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    return {
      operator: await ensureDemoOperator(pool, hashPassword),
      admin: await ensureDemoAdmin(pool, hashPassword),
    };
  } finally {
    await pool.end();
  }
}
