/**
 * The rate limit for anonymous and refused calls (issue 13). Every refusal (401, 403, a refused
 * cross-origin write) costs its client address a point; past REFUSALS_PER_MINUTE in a minute the
 * address is answered 429 for every call that carries no credential, before any database work
 * (no session lookup, no audit row). Calls with a session cookie or a Bearer token still go
 * through, so an attacker behind the same NAT cannot lock signed-in colleagues out; their own
 * refusals are audited under their name and keep costing the address points.
 *
 * Per process, in memory (rate-limiter-flexible's RateLimiterMemory): it protects this process's
 * database pool and audit writes; several console processes each allow the budget once, which is
 * fine for a flood guard. The sign-in throttle, which must be exact cluster-wide, lives in
 * PostgreSQL instead (sign-in-throttle.ts).
 */
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { readSessionToken } from "./session-cookie";

export const REFUSALS_PER_MINUTE = 60;

const limiter = new RateLimiterMemory({ points: REFUSALS_PER_MINUTE, duration: 60 });

/** Counts one refused call against the address. Never throws. */
export async function noteRefusal(ip: string | null): Promise<void> {
  // No address (a caller built without the server's peer hook: in-process tests) is not limited:
  // lumping every such caller under one key would let one of them block the others.
  if (ip === null) return;
  try {
    await limiter.consume(ip);
  } catch (error) {
    // Over the limit: RateLimiterMemory rejects with a RateLimiterRes; anything else is a bug.
    if (!(error instanceof RateLimiterRes)) throw error;
  }
}

/** Whether a request carries a credential (session cookie or Authorization header). */
export function carriesCredential(headers: Headers): boolean {
  return headers.has("authorization") || readSessionToken(headers) !== null;
}

/**
 * Seconds until the address may call anonymously again, or null when it is under the limit (or
 * the request carries a credential).
 */
export async function refusalBlock(ip: string | null, headers: Headers): Promise<number | null> {
  if (ip === null || carriesCredential(headers)) return null;
  const state = await limiter.get(ip);
  if (state === null || state.consumedPoints < REFUSALS_PER_MINUTE) return null;
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}
