import { getPool } from "@/server/db";
import { createTrpcContext } from "@/server/trpc/context";
import { handleTrpcHttpRequest } from "@/server/trpc/http-handler";

function handleTrpcRequest(request: Request): Promise<Response> {
  return handleTrpcHttpRequest(
    request,
    (type) => createTrpcContext({ headers: request.headers, slide: type === "mutation" }),
    getPool,
  );
}

export { handleTrpcRequest as GET, handleTrpcRequest as POST };
