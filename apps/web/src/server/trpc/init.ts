import { initTRPC } from "@trpc/server";
import type pg from "pg";
import { z, ZodError } from "zod";
import type { TNodeInfo } from "../node-info";

/**
 * What every procedure receives. Built per request by `createTrpcContext` (context.ts); tests
 * build it directly around a test database and call procedures through `createCaller`.
 */
export interface TTrpcContext {
  db: pg.Pool;
  node: TNodeInfo;
}

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
