import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type pg from "pg";
import { countBlockedRefusal, recordRefusal } from "../audit/audited";
import { noteRefusal, refusalBlock } from "../auth/refusal-limiter";
import { readRequestInfo } from "../auth/request-info";
import type { TTrpcContext } from "./init";
import { appRouter } from "./root-router";

/**
 * The console's pages batch at most a handful of queries per render (the client's batch link is
 * capped at the same number); 10 leaves room while bounding what one request may cost. Unbounded,
 * one GET carried 300 calls and one anonymous POST 40 audited mutations (issue 13). tRPC answers a
 * larger batch 400 before any procedure runs.
 */
export const MAX_BATCH_SIZE = 10;

/**
 * Every /api/trpc answer: never cached (they carry a signed-in user's data) and never sniffed
 * as anything but JSON.
 */
export const TRPC_RESPONSE_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
} as const;

/**
 * A live stream (text/event-stream): `no-transform` keeps Next's gzip from holding events back
 * until a compression block fills, and `x-accel-buffering: no` does the same for an nginx in front.
 */
const SSE_RESPONSE_HEADERS = {
  ...TRPC_RESPONSE_HEADERS,
  "cache-control": "no-store, no-transform",
  "x-accel-buffering": "no",
} as const;

/**
 * Serves one /api/trpc request. The route handler passes the real context; tests pass one
 * built around a test database and go through exactly this HTTP layer (batching, methods, body).
 * `getDb` is where a call answered 429 is counted for the audit log's summary row.
 */
export async function handleTrpcHttpRequest(
  request: Request,
  createContext: (type: "query" | "mutation" | "subscription" | "unknown") => Promise<TTrpcContext>,
  getDb: () => pg.Pool,
): Promise<Response> {
  // Past its budget of refusals an address gets 429 for credential-less calls before any
  // database work (auth/refusal-limiter.ts).
  const { ip } = readRequestInfo(request.headers);
  const retryAfter = await refusalBlock(ip, request.headers);
  if (retryAfter !== null) {
    countBlockedRefusal(getDb(), ip);
    return tooManyRefusals(retryAfter);
  }
  // A request refused as a whole (a batch over MAX_BATCH_SIZE, a path that does not decode)
  // fails before any procedure, so no middleware records it; it is recorded here instead.
  let wholeRequestRefusal: string | null = null;
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    maxBatchSize: MAX_BATCH_SIZE,
    createContext: ({ info }) => createContext(info.type),
    responseMeta: ({ type }) => ({
      headers: type === "subscription" ? SSE_RESPONSE_HEADERS : TRPC_RESPONSE_HEADERS,
    }),
    onError({ error, path, type, ctx }) {
      if (ctx === undefined && (error.code === "BAD_REQUEST" || error.code === "PARSE_ERROR")) {
        wholeRequestRefusal = error.message;
      }
      // Expected failures (bad input, not found) are answered to the caller; only bugs and
      // infrastructure faults are logged, with the full error the browser never sees.
      if (error.code === "INTERNAL_SERVER_ERROR") {
        console.error(`tRPC ${type} ${path ?? "<unknown>"} failed`, error);
      }
    },
  });
  // A refused call or batch (every call refused alike) answers 401 or 403.
  if (response.status === 401 || response.status === 403) await noteRefusal(ip);
  if (wholeRequestRefusal !== null)
    await recordWholeRequestRefusal(request, createContext, wholeRequestRefusal);
  return response;
}

async function recordWholeRequestRefusal(
  request: Request,
  createContext: (type: "unknown") => Promise<TTrpcContext>,
  message: string,
): Promise<void> {
  try {
    // The context names who sent it (a session lookup, only on this refusal's path).
    const ctx = await createContext("unknown");
    await recordRefusal(ctx.db, {
      principal: ctx.principal,
      action: "trpc.request",
      target: new URL(request.url).pathname.replace(/^\/api\/trpc\/?/, ""),
      ip: ctx.request.ip,
      reason: "invalid_input",
      detail: { field: "(request)", message: message.slice(0, 500) },
    });
  } catch (error) {
    console.error("audit: could not record a refused tRPC request", error);
  }
}

/** tRPC's error shape, so the console's client shows the message. */
function tooManyRefusals(retryAfterSeconds: number): Response {
  const message = `Too many refused requests from this address; try again in ${retryAfterSeconds} s or sign in.`;
  return Response.json(
    { error: { message, code: -32029, data: { code: "TOO_MANY_REQUESTS", httpStatus: 429 } } },
    {
      status: 429,
      headers: { ...TRPC_RESPONSE_HEADERS, "retry-after": String(retryAfterSeconds) },
    },
  );
}
