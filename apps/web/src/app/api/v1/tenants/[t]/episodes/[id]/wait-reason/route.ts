import { methodNotAllowed } from "@/server/rest/rest-response";
import { episodeRoutes } from "@/server/rest/episode-routes";

export const dynamic = "force-dynamic";
export const GET = episodeRoutes.waitReason;

// Any other method: a 405 in the API's error shape (Next.js would answer it with no body).
const otherMethod = methodNotAllowed("GET");
export { otherMethod as POST, otherMethod as PUT, otherMethod as PATCH, otherMethod as DELETE };
