/**
 * What kind of failure a database error is, as far as retrying the same statement goes.
 * `transient`: the connection or the server went away for a moment (a restart, a terminated
 * backend, a dropped TCP connection) or the statement lost a serialization/deadlock race; the
 * same statement sent again may well succeed. `permanent`: anything else (a bug, a constraint,
 * bad input), which a resend would only repeat.
 */
export type DatabaseErrorKind =
  { kind: "transient"; code: string } | { kind: "permanent"; code: string | null };

/**
 * SQLSTATEs a resend can cure. 57P01 admin_shutdown is what `pg_terminate_backend` and a fast or
 * immediate shutdown send to every backend; 57P02 crash_shutdown arrives when another backend
 * crashed; 57P03 cannot_connect_now is the answer while the server is starting up or recovering
 * (~0.5-1 s after `pg_ctl -m immediate`); 53300 too_many_connections happens when every pool
 * reconnects at once right after such a restart. 40001/40P01: the statement was rolled back as a
 * whole, so sending it again is exactly what PostgreSQL asks for.
 */
const TRANSIENT_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300", "40001", "40P01"]);

/** Node socket errors of a connection that is gone or could not be made (server down). */
const TRANSIENT_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/**
 * Messages of errors `pg` raises itself, without a code, when the connection ends under a query
 * ("Connection terminated unexpectedly"), when a dead client is used again, or when the pool
 * could not open a connection in its connectionTimeoutMillis.
 */
const TRANSIENT_MESSAGES = [
  /^Connection terminated/,
  /is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout/,
];

/** Classifies an error thrown by a `pg` query (or by anything that wrapped one as `cause`). */
export function classifyDatabaseError(error: unknown): DatabaseErrorKind {
  for (const candidate of causes(error)) {
    const code = codeOf(candidate);
    if (code !== null) {
      // Class 08 is connection_exception (08000, 08003 connection_does_not_exist, 08006
      // connection_failure, 08001/08004 when a connection could not be established).
      if (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_SOCKET_CODES.has(code) || /^08/.test(code)) {
        return { kind: "transient", code };
      }
      // A SQLSTATE is the server's verdict on the statement: nothing further down changes it.
      if (/^[0-9A-Z]{5}$/.test(code)) return { kind: "permanent", code };
    }
    const message = candidate instanceof Error ? candidate.message : undefined;
    if (message !== undefined && TRANSIENT_MESSAGES.some((pattern) => pattern.test(message))) {
      return { kind: "transient", code: "connection_lost" };
    }
  }
  return { kind: "permanent", code: codeOf(error) };
}

/** True when sending the same statement again may succeed (see classifyDatabaseError). */
export function isTransientDatabaseError(error: unknown): boolean {
  return classifyDatabaseError(error).kind === "transient";
}

/** The error, its `cause` chain and, for an AggregateError (a refused IPv4+IPv6 connect), its parts. */
function causes(error: unknown): unknown[] {
  const seen: unknown[] = [];
  const queue: unknown[] = [error];
  // Bounded: a cause cycle or a deep chain must not loop; real chains are 1-3 long.
  while (queue.length > 0 && seen.length < 16) {
    const next = queue.shift();
    if (next === undefined || next === null || seen.includes(next)) continue;
    seen.push(next);
    if (next instanceof AggregateError) queue.push(...(next.errors as unknown[]));
    if (typeof next === "object" && "cause" in next) queue.push(next.cause);
  }
  return seen;
}

function codeOf(error: unknown): string | null {
  if (typeof error !== "object" || error === null || !("code" in error)) return null;
  return typeof error.code === "string" ? error.code : null;
}
