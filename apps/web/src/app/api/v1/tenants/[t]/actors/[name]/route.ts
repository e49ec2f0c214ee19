import { actorRoutes } from "@/server/rest/actor-routes";
import { methodNotAllowed } from "@/server/rest/rest-response";

export const dynamic = "force-dynamic";
export const GET = actorRoutes.get;
export const PATCH = actorRoutes.patch;
export const PUT = actorRoutes.put;

// Any other method: a 405 in the API's error shape. Disable instead of DELETE: episodes keep
// naming the actor.
const otherMethod = methodNotAllowed("GET", "PATCH", "PUT");
export { otherMethod as POST, otherMethod as DELETE };
