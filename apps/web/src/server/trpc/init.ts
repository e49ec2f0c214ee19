/**
 * tRPC instance and the procedure builders. HOW TO USE (every procedure is protected by default):
 *
 *   viewerProcedure    reads: any signed-in user.       ctx.principal: TPrincipal (non-null)
 *   operatorProcedure  fire / pause / resume / modes.   refused (and audited) below operator
 *   adminProcedure     users and API tokens.            refused (and audited) below admin
 *   publicProcedure    ONLY for paths listed in PUBLIC_PROCEDURES (the router-walk test fails
 *                      on any other procedure that answers an anonymous call)
 *
 * Mutations are POST-only (tRPC's fetch adapter answers 405 to a GET) and refused unless the
 * browser proves same origin (Sec-Fetch-Site / Origin vs Host); refusals are written to
 * cyclium_audit_log under the procedure's path as `action`. Do the state change itself inside
 * `audited` (server/audit), with the same path as `action`, so it and its audit row commit in one
 * transaction and the log reads the same for allowed and refused attempts:
 *
 *   fire: operatorProcedure.input(ZFireInput).mutation(({ ctx, input }) =>
 *     audited(ctx, { action: "triggers.fire", target: input.name }, (tx) => fireTrigger({ db: tx, ... })))
 *
 * Throw (or let core throw) CycliumError for expected failures; it becomes the matching tRPC
 * code with its message (errors/cyclium-error-status.ts). Anything else is "Internal server error".
 */
import { isCycliumError } from "@cyclium/core/console";
import { initTRPC, TRPCError } from "@trpc/server";
import type pg from "pg";
import { z, ZodError } from "zod";
import { recordRefusal } from "../audit/audited";
import { roleAtLeast, type TPrincipal, type TRole } from "../auth/principal";
import type { TRequestInfo } from "../auth/request-info";
import { cycliumErrorStatus } from "../errors/cyclium-error-status";
import { inputIssuesOf } from "../errors/input-issues";
import { describeInputProblem, findInputProblem } from "../input/untrusted-input";
import type { TNodeInfo } from "../node-info";

/**
 * What every procedure receives. Built per request by `createTrpcContext` (context.ts); tests
 * build it directly around a test database and call procedures through `createCaller`.
 */
export interface TTrpcContext {
  db: pg.Pool;
  node: TNodeInfo;
  /** Null when the request carries no valid session. */
  principal: TPrincipal | null;
  request: TRequestInfo;
}

/** The only procedures an anonymous caller may reach (checked by root-router.walk.test.ts). */
export const PUBLIC_PROCEDURES: ReadonlySet<string> = new Set(["auth.session"]);

const t = initTRPC.context<TTrpcContext>().create({
  // The live stream (routers/live.ts): a ping every 10 s keeps idle proxies from closing it and
  // lets the browser notice a dead one (no message for 25 s: reconnect). Each stream ends after
  // 5 minutes and the browser reconnects, so a session that ended meanwhile stops receiving
  // hints within 5 minutes, as it stops reading within one poll.
  sse: {
    ping: { enabled: true, intervalMs: 10_000 },
    maxDurationMs: 5 * 60_000,
    client: { reconnectAfterInactivityMs: 25_000 },
  },
  // The browser never sees stack traces or internal messages (SQL text, file paths): unexpected
  // errors become a generic message and are logged on the server by the route handler.
  errorFormatter({ shape, error }) {
    const isUnexpected = error.code === "INTERNAL_SERVER_ERROR";
    // Readable like REST's 400 (one line per issue, with its path), not a JSON dump of issues.
    const invalidInput = error.code === "BAD_REQUEST" && error.cause instanceof ZodError;
    return {
      code: shape.code,
      message: isUnexpected
        ? "Internal server error"
        : invalidInput
          ? `Invalid input: ${z.prettifyError(error.cause)}`
          : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        // Only invalid *input* is the caller's business; an output validation failure is a bug.
        zodError:
          error.code === "BAD_REQUEST" && error.cause instanceof ZodError
            ? z.flattenError(error.cause)
            : null,
        // An input that passed the procedure's schema but not the expectation's (fire, retry
        // with edited input): each issue with its path inside the input, for the form's fields.
        inputIssues: error.code === "BAD_REQUEST" ? inputIssuesOf(error.cause) : null,
      },
    };
  },
});

export const createTrpcRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** CycliumError thrown anywhere below becomes its tRPC code with its user-facing message. */
const mapCycliumErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isCycliumError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({
      code: cycliumErrorStatus(cause.code).trpc,
      message: cause.message,
      cause,
    });
  }
  return result;
});

/**
 * What a refused call was aimed at, read from its raw input the way the procedures name their
 * audit target (`triggers.fire` → the trigger's name, `admin.users.setRole` → the user id), so a
 * refusal names it too (issue 13: tRPC refusals never did). Unvalidated: it is only recorded,
 * sanitized and clipped by insertAuditEntry.
 */
const TARGET_KEYS = [
  "name",
  "userId",
  "tokenId",
  "instanceId",
  "id",
  "email",
  "targetNode",
  "identifier",
];

async function refusalTarget(getRawInput: () => Promise<unknown>): Promise<string | null> {
  let input: unknown;
  try {
    input = await getRawInput();
  } catch {
    return null;
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
  const fields = input as Record<string, unknown>;
  if (typeof fields.actorId === "string") {
    return typeof fields.expectationId === "string"
      ? `${fields.actorId}/${fields.expectationId}`
      : fields.actorId;
  }
  for (const key of TARGET_KEYS) {
    const value = fields[key];
    if (typeof value === "string") return value;
  }
  return null;
}

/** CSRF defence: a state change must come from this console's own pages. */
const sameOriginMutations = t.middleware(async ({ ctx, type, path, next, getRawInput }) => {
  if (type === "mutation" && ctx.request.origin !== "same") {
    await recordRefusal(ctx.db, {
      principal: ctx.principal,
      action: path,
      target: await refusalTarget(getRawInput),
      ip: ctx.request.ip,
      reason: "cross_origin",
    });
    throw new TRPCError({
      code: "FORBIDDEN",
      message: "Cross-origin request refused: state changes must come from the console itself.",
    });
  }
  return next();
});

/**
 * The input boundary (server/input): NUL, lone surrogates, depth and size are refused with a 400
 * naming the field before the procedure's schema runs; placed after authorization, so an
 * anonymous caller learns nothing about inputs.
 */
const inputBoundary = t.middleware(async ({ ctx, type, path, getRawInput, next }) => {
  // Recorded like the other refusals, reads included (issue 29, OWASP ASVS V16), with the
  // anonymous cap of recordRefusal.
  const refuse = async (message: string, field: string) =>
    recordRefusal(ctx.db, {
      principal: ctx.principal,
      action: path,
      target: await refusalTarget(getRawInput),
      ip: ctx.request.ip,
      reason: "invalid_input",
      detail: { type, field, message: message.slice(0, 500) },
    });
  let rawInput: unknown;
  try {
    rawInput = await getRawInput();
  } catch (error) {
    // The request's body is not JSON (tRPC answers 400 with the parser's message).
    await refuse(error instanceof Error ? error.message : "Invalid input", "(input)");
    throw error;
  }
  const problem = findInputProblem(rawInput);
  if (problem !== null) {
    const message = describeInputProblem(problem);
    await refuse(message, problem.path);
    throw new TRPCError({ code: "BAD_REQUEST", message });
  }
  const result = await next();
  // The procedure's own schema refused the input (it runs after this middleware).
  if (!result.ok && result.error.code === "BAD_REQUEST" && result.error.cause instanceof ZodError) {
    const field = result.error.cause.issues[0]?.path.map(String).join(".") || "(input)";
    await refuse(z.prettifyError(result.error.cause), field);
  }
  return result;
});

function requireRole(required: TRole) {
  return t.middleware(async ({ ctx, type, path, next, getRawInput }) => {
    const principal = ctx.principal;
    if (principal === null) {
      // Reads too (issue 29): an expired tab that keeps polling is bounded by the anonymous cap,
      // past which its refusals are summarised with a count (audit/audited.ts).
      await recordRefusal(ctx.db, {
        principal,
        action: path,
        target: await refusalTarget(getRawInput),
        ip: ctx.request.ip,
        reason: "unauthenticated",
        detail: { type },
      });
      throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
    }
    if (!roleAtLeast(principal.role, required)) {
      await recordRefusal(ctx.db, {
        principal,
        action: path,
        target: await refusalTarget(getRawInput),
        ip: ctx.request.ip,
        reason: "role",
        detail: { required, role: principal.role },
      });
      throw new TRPCError({
        code: "FORBIDDEN",
        message: `This needs the ${required} role; you are signed in as ${principal.role}.`,
      });
    }
    return next({ ctx: { ...ctx, principal } });
  });
}

const baseProcedure = t.procedure.use(mapCycliumErrors).use(sameOriginMutations);

/** Anonymous access. Add the path to PUBLIC_PROCEDURES, or the router-walk test fails. */
export const publicProcedure = baseProcedure.use(inputBoundary);
export const viewerProcedure = baseProcedure.use(requireRole("viewer")).use(inputBoundary);
export const operatorProcedure = baseProcedure.use(requireRole("operator")).use(inputBoundary);
export const adminProcedure = baseProcedure.use(requireRole("admin")).use(inputBoundary);
