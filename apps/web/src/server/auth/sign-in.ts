import { withTransaction } from "@cyclium/core/db";
import type pg from "pg";
import { z } from "zod";
import { insertAuditEntry } from "../audit/audit-entry";
import { recordRefusal } from "../audit/audited";
import { verifyAgainstDummy, verifyPassword } from "./password";
import { ZRole, type TPrincipal } from "./principal";
import { generateSecretToken, hashSecretToken } from "./secret-token";
import { createSignInThrottle, type TSignInThrottle } from "./sign-in-throttle";
import { SESSION_ABSOLUTE_TIMEOUT_MS } from "./session-policy";

export const ZSignInInput = z.object({
  email: z.string().trim().toLowerCase().max(255).pipe(z.email("Enter a valid email address.")),
  password: z.string().min(1, "Enter your password.").max(1024),
});
export type TSignInInput = z.infer<typeof ZSignInInput>;

export type TSignInResult =
  | { ok: true; token: string; principal: TPrincipal }
  | { ok: false; reason: "invalid_credentials" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

interface UserRow {
  id: string;
  email: string;
  role: string;
  password_hash: string;
  disabled_at: Date | null;
}

/**
 * Checks the password and opens a new session. The session id is fresh on every sign-in (the
 * cookie rotates; a session the browser already had is deleted, so a planted id cannot be
 * promoted — session fixation) and only its SHA-256 is stored. Success and failure are audited.
 */
export async function signIn(options: {
  db: pg.Pool;
  input: TSignInInput;
  ip: string | null;
  userAgent: string | null;
  previousToken?: string | null;
  throttle?: TSignInThrottle;
}): Promise<TSignInResult> {
  const { db, input, ip } = options;
  const throttle = options.throttle ?? createSignInThrottle(db);
  const refuse = (reason: "rate_limited" | "unauthenticated", detail: Record<string, unknown>) =>
    recordRefusal(db, {
      principal: null,
      action: "auth.sign_in",
      target: input.email,
      ip,
      reason,
      detail,
    });

  const retryAfterSeconds = await throttle.retryAfterSeconds(ip, input.email);
  if (retryAfterSeconds > 0) {
    await refuse("rate_limited", { retryAfterSeconds });
    return { ok: false, reason: "rate_limited", retryAfterSeconds };
  }

  const { rows } = await db.query<UserRow>(
    `SELECT id, email, role, password_hash, disabled_at FROM cyclium_users WHERE email = $1`,
    [input.email],
  );
  const user = rows[0];
  const passwordOk =
    user === undefined
      ? await verifyAgainstDummy(input.password)
      : await verifyPassword(user.password_hash, input.password);
  const role = ZRole.safeParse(user?.role);
  if (user === undefined || !passwordOk || user.disabled_at !== null || !role.success) {
    await throttle.recordFailure(ip, input.email);
    await refuse("unauthenticated", {
      why: user === undefined ? "unknown_email" : !passwordOk ? "bad_password" : "disabled",
    });
    return { ok: false, reason: "invalid_credentials" };
  }
  await throttle.recordSuccess(ip, input.email);

  const principal: TPrincipal = { kind: "user", id: user.id, name: user.email, role: role.data };
  const token = generateSecretToken();
  await withTransaction(db, async (tx) => {
    if (options.previousToken) {
      await tx.query(`DELETE FROM cyclium_sessions WHERE id = $1`, [
        hashSecretToken(options.previousToken),
      ]);
    }
    // Housekeeping for this user only: sessions past their absolute expiry can never come back.
    await tx.query(`DELETE FROM cyclium_sessions WHERE user_id = $1 AND expires_at < now()`, [
      user.id,
    ]);
    await tx.query(
      `INSERT INTO cyclium_sessions (id, user_id, ip, user_agent, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000))`,
      [
        hashSecretToken(token),
        user.id,
        ip,
        options.userAgent?.slice(0, 512) ?? null,
        SESSION_ABSOLUTE_TIMEOUT_MS,
      ],
    );
    await insertAuditEntry(tx, {
      principal,
      action: "auth.sign_in",
      target: user.email,
      outcome: "ok",
      ip,
    });
  });
  return { ok: true, token, principal };
}

/** Ends the session behind `token` (if any) and records who signed out. */
export async function signOut(options: {
  db: pg.Pool;
  token: string;
  ip: string | null;
}): Promise<void> {
  await withTransaction(options.db, async (tx) => {
    const { rows } = await tx.query<{ user_id: string; email: string; role: string }>(
      `DELETE FROM cyclium_sessions s USING cyclium_users u
        WHERE s.id = $1 AND u.id = s.user_id
        RETURNING s.user_id, u.email, u.role`,
      [hashSecretToken(options.token)],
    );
    const row = rows[0];
    const role = ZRole.safeParse(row?.role);
    if (row === undefined || !role.success) return;
    await insertAuditEntry(tx, {
      principal: { kind: "user", id: row.user_id, name: row.email, role: role.data },
      action: "auth.sign_out",
      target: row.email,
      outcome: "ok",
      ip: options.ip,
    });
  });
}
