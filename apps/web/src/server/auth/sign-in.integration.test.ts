import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createApiToken,
  revokeApiToken,
  hashSecretToken,
  createSignInThrottle,
  type SignInThrottle,
} from "@cyclium/core/console";
import { resolvePrincipal } from "./resolve-principal";
import { SESSION_COOKIE } from "./session-cookie";
import { signIn, signOut } from "./sign-in";
import { auditRows, seedTestUsers, TEST_PASSWORD, type TTestUsers } from "./testing/auth-test-kit";
import { validateSession } from "./validate-session";

let database: TestDatabase;
let users: TTestUsers;
let throttle: SignInThrottle;

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
});

beforeEach(async () => {
  throttle = createSignInThrottle(database.pool);
  await database.pool.query(`DELETE FROM cyclium_sign_in_attempts`);
});

afterAll(async () => {
  await database.drop();
});

const attempt = (email: string, password: string, previousToken?: string) =>
  signIn({
    db: database.pool,
    input: { email, password },
    ip: "10.0.0.1",
    userAgent: "vitest",
    previousToken,
    throttle,
  });

async function signedIn(email = "operator@test.local"): Promise<string> {
  const result = await attempt(email, TEST_PASSWORD);
  if (result.kind !== "signed_in") throw new Error(`sign-in failed: ${result.kind}`);
  return result.token;
}

describe("signIn", () => {
  it("opens a session stored only as a hash and audits it", async () => {
    const token = await signedIn();
    const { rows } = await database.pool.query<{ id: string }>(
      `SELECT id FROM cyclium_sessions WHERE user_id = $1`,
      [users.operator.id],
    );
    expect(rows.map((row) => row.id)).toContain(hashSecretToken(token));
    expect(rows.map((row) => row.id)).not.toContain(token);
    await expect(validateSession({ db: database.pool, token })).resolves.toEqual(users.operator);
    expect(await auditRows(database.pool, "auth.sign_in")).toContainEqual(
      expect.objectContaining({ principal: "user:operator@test.local", outcome: "ok" }),
    );
  });

  it("rotates the session: the one the browser had before is gone", async () => {
    const before = await signedIn();
    const after = await attempt("operator@test.local", TEST_PASSWORD, before);
    expect(after.kind).toBe("signed_in");
    await expect(validateSession({ db: database.pool, token: before })).resolves.toBeNull();
  });

  it("gives the same answer for a wrong password and an unknown email, and audits both", async () => {
    await expect(attempt("operator@test.local", "wrong password")).resolves.toEqual({
      kind: "invalid_credentials",
    });
    await expect(attempt("nobody@test.local", TEST_PASSWORD)).resolves.toEqual({
      kind: "invalid_credentials",
    });
    const refusals = (await auditRows(database.pool, "auth.sign_in")).filter(
      (row) => row.outcome === "refused",
    );
    expect(refusals.map((row) => row.target)).toEqual(
      expect.arrayContaining(["operator@test.local", "nobody@test.local"]),
    );
  });

  it("locks out after 5 failures per IP and email, even with the right password", async () => {
    for (let i = 0; i < 5; i += 1) await attempt("viewer@test.local", "guess");
    const locked = await attempt("viewer@test.local", TEST_PASSWORD);
    expect(locked).toMatchObject({ kind: "rate_limited" });
    expect(locked.kind === "rate_limited" && locked.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("refuses disabled users", async () => {
    const token = await signedIn("admin@test.local");
    await database.pool.query(`UPDATE cyclium_users SET disabled_at = now() WHERE id = $1`, [
      users.admin.id,
    ]);
    await expect(validateSession({ db: database.pool, token })).resolves.toBeNull();
    await expect(attempt("admin@test.local", TEST_PASSWORD)).resolves.toMatchObject({
      kind: "invalid_credentials",
    });
    await database.pool.query(`UPDATE cyclium_users SET disabled_at = NULL WHERE id = $1`, [
      users.admin.id,
    ]);
  });
});

describe("session lifetime", () => {
  it("ends after 30 minutes idle", async () => {
    const token = await signedIn();
    await database.pool.query(
      `UPDATE cyclium_sessions SET last_seen_at = now() - interval '31 minutes' WHERE id = $1`,
      [hashSecretToken(token)],
    );
    await expect(validateSession({ db: database.pool, token })).resolves.toBeNull();
  });

  it("slides while used, but never past the absolute expiry", async () => {
    const token = await signedIn();
    const id = hashSecretToken(token);
    await database.pool.query(
      `UPDATE cyclium_sessions SET last_seen_at = now() - interval '20 minutes' WHERE id = $1`,
      [id],
    );
    await expect(validateSession({ db: database.pool, token })).resolves.not.toBeNull();
    const { rows } = await database.pool.query<{ idle_s: number }>(
      `SELECT extract(epoch FROM now() - last_seen_at)::float AS idle_s FROM cyclium_sessions WHERE id = $1`,
      [id],
    );
    expect(rows[0]?.idle_s).toBeLessThan(5);
    await database.pool.query(
      `UPDATE cyclium_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    await expect(validateSession({ db: database.pool, token })).resolves.toBeNull();
  });

  it("does not slide on background polls", async () => {
    const token = await signedIn();
    const id = hashSecretToken(token);
    await database.pool.query(
      `UPDATE cyclium_sessions SET last_seen_at = now() - interval '20 minutes' WHERE id = $1`,
      [id],
    );
    await expect(validateSession({ db: database.pool, token, slide: false })).resolves.toEqual(
      users.operator,
    );
    const { rows } = await database.pool.query<{ idle_s: number }>(
      `SELECT extract(epoch FROM now() - last_seen_at)::float AS idle_s FROM cyclium_sessions WHERE id = $1`,
      [id],
    );
    expect(rows[0]?.idle_s).toBeGreaterThan(19 * 60);
  });

  it("ends at sign-out", async () => {
    const token = await signedIn();
    await signOut({ db: database.pool, token, ip: null });
    await expect(validateSession({ db: database.pool, token })).resolves.toBeNull();
    expect(await auditRows(database.pool, "auth.sign_out")).toHaveLength(1);
  });
});

describe("resolvePrincipal", () => {
  it("reads the session cookie, and Bearer tokens only where allowed", async () => {
    const session = await signedIn();
    const { token } = await createApiToken({
      db: database.pool,
      name: "ci",
      role: "operator",
      createdBy: users.admin.id,
    });
    const cookie = new Headers({ cookie: `${SESSION_COOKIE}=${session}` });
    const bearer = new Headers({ authorization: `Bearer ${token}` });
    const db = database.pool;
    await expect(resolvePrincipal({ db, headers: cookie, allowApiTokens: false })).resolves.toEqual(
      users.operator,
    );
    await expect(
      resolvePrincipal({ db, headers: bearer, allowApiTokens: false }),
    ).resolves.toBeNull();
    await expect(
      resolvePrincipal({ db, headers: bearer, allowApiTokens: true }),
    ).resolves.toMatchObject({ kind: "token", name: "ci", role: "operator" });
    const bad = new Headers({ authorization: "Bearer not-a-real-token-at-all" });
    await expect(resolvePrincipal({ db, headers: bad, allowApiTokens: true })).resolves.toBeNull();
  });

  it("stops accepting a revoked token", async () => {
    const created = await createApiToken({
      db: database.pool,
      name: "old",
      role: "viewer",
      createdBy: null,
    });
    await revokeApiToken({ db: database.pool, tokenId: created.apiToken.id });
    const headers = new Headers({ authorization: `Bearer ${created.token}` });
    await expect(
      resolvePrincipal({ db: database.pool, headers, allowApiTokens: true }),
    ).resolves.toBeNull();
  });
});
