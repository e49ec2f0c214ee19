import { episodeRoutes } from "@/server/rest/episode-routes";
import { methodNotAllowed } from "@/server/rest/rest-response";

export const dynamic = "force-dynamic";
export const POST = episodeRoutes.signal;

// Any other method: a 405 in the API's error shape (Next.js would answer it with no body).
const otherMethod = methodNotAllowed("POST");
export { otherMethod as GET, otherMethod as PUT, otherMethod as PATCH, otherMethod as DELETE };
