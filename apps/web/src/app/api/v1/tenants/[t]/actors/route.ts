import { actorRoutes } from "@/server/rest/actor-routes";
import { methodNotAllowed } from "@/server/rest/rest-response";

export const dynamic = "force-dynamic";
export const GET = actorRoutes.list;
export const POST = actorRoutes.create;

// Any other method: a 405 in the API's error shape (Next.js would answer it with no body).
const otherMethod = methodNotAllowed("GET", "POST");
export { otherMethod as PUT, otherMethod as PATCH, otherMethod as DELETE };
