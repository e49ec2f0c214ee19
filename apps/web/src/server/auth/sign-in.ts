import {
  createSignInThrottle,
  endSession,
  generateSecretToken,
  openSession,
  type SignInThrottle,
  withTransaction,
  findUserCredentials,
} from "@cyclium/core/console";
import type pg from "pg";
import { z } from "zod";
import { insertAuditEntry } from "../audit/audit-entry";
import { recordRefusal } from "../audit/audited";
import { verifyAgainstDummy, verifyPassword } from "./password";
import { ZRole, type TPrincipal } from "./principal";
import { SESSION_ABSOLUTE_TIMEOUT_MS } from "./session-policy";

export const ZSignInInput = z.object({
  email: z.string().trim().toLowerCase().max(255).pipe(z.email("Enter a valid email address.")),
  password: z.string().min(1, "Enter your password.").max(1024),
});
export type TSignInInput = z.infer<typeof ZSignInInput>;

export type TSignInResult =
  | { kind: "signed_in"; token: string; principal: TPrincipal }
  | { kind: "invalid_credentials" }
  | { kind: "rate_limited"; retryAfterSeconds: number };

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
  throttle?: SignInThrottle;
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
    return { kind: "rate_limited", retryAfterSeconds };
  }

  const user = await findUserCredentials({ db, email: input.email });
  const passwordOk =
    user === undefined
      ? await verifyAgainstDummy(input.password)
      : await verifyPassword(user.passwordHash, input.password);
  const role = ZRole.safeParse(user?.role);
  if (user === undefined || !passwordOk || user.disabledAt !== null || !role.success) {
    await throttle.recordFailure(ip, input.email);
    await refuse("unauthenticated", {
      why: user === undefined ? "unknown_email" : !passwordOk ? "bad_password" : "disabled",
    });
    return { kind: "invalid_credentials" };
  }
  await throttle.recordSuccess(ip, input.email);

  const principal: TPrincipal = { kind: "user", id: user.id, name: user.email, role: role.data };
  const token = generateSecretToken();
  await withTransaction(db, async (tx) => {
    await openSession({
      db: tx,
      userId: user.id,
      token,
      previousToken: options.previousToken,
      ip,
      userAgent: options.userAgent,
      absoluteTimeoutMs: SESSION_ABSOLUTE_TIMEOUT_MS,
    });
    await insertAuditEntry(tx, {
      principal,
      action: "auth.sign_in",
      target: user.email,
      outcome: "ok",
      ip,
    });
  });
  return { kind: "signed_in", token, principal };
}

/** Ends the session behind `token` (if any) and records who signed out. */
export async function signOut(options: {
  db: pg.Pool;
  token: string;
  ip: string | null;
}): Promise<void> {
  await withTransaction(options.db, async (tx) => {
    const user = await endSession({ db: tx, token: options.token });
    if (user === null) return;
    await insertAuditEntry(tx, {
      principal: { kind: "user", id: user.userId, name: user.email, role: user.role },
      action: "auth.sign_out",
      target: user.email,
      outcome: "ok",
      ip: options.ip,
    });
  });
}
