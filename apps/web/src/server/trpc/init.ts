import "server-only";
import { initTRPC } from "@trpc/server";
import { z, ZodError } from "zod";
import { getPool } from "@/server/db";
import { getNodeInfo } from "@/server/node-info";

/**
 * Per-request context. `headers` is unused until sign-in lands, but every transport (the HTTP
 * route handler and the RSC caller) already passes them so sessions can be read here later.
 */
export function createTrpcContext(_options: { headers: Headers }) {
  return { db: getPool(), node: getNodeInfo() };
}

export type TTrpcContext = ReturnType<typeof createTrpcContext>;

const t = initTRPC.context<TTrpcContext>().create({
  // The browser never sees stack traces or internal messages (SQL text, file paths): unexpected
  // errors become a generic message and are logged on the server by the route handler.
  errorFormatter({ shape, error }) {
    const isUnexpected = error.code === "INTERNAL_SERVER_ERROR";
    return {
      code: shape.code,
      message: isUnexpected ? "Internal server error" : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        // Only invalid *input* is the caller's business; an output validation failure is a bug.
        zodError:
          error.code === "BAD_REQUEST" && error.cause instanceof ZodError
            ? z.flattenError(error.cause)
            : null,
      },
    };
  },
});

export const createTrpcRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;
