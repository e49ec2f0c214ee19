import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createTrpcContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/root-router";

function handleTrpcRequest(request: Request): Promise<Response> {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: ({ info }) =>
      createTrpcContext({ headers: request.headers, slide: info.type === "mutation" }),
    onError({ error, path, type }) {
      // Expected failures (bad input, not found) are answered to the caller; only bugs and
      // infrastructure faults are logged, with the full error the browser never sees.
      if (error.code === "INTERNAL_SERVER_ERROR") {
        console.error(`tRPC ${type} ${path ?? "<unknown>"} failed`, error);
      }
    },
  });
}

export { handleTrpcRequest as GET, handleTrpcRequest as POST };
