// Any other /api/v1 address answers in the API's own error shape, not with the console's HTML
// 404 page, so a script with a typo in its URL gets a message it can print.
import { restError } from "@/server/rest/rest-response";

export const dynamic = "force-dynamic";

function notFound(request: Request): Response {
  return restError(
    404,
    "not_found",
    `No REST endpoint ${request.method} ${new URL(request.url).pathname}.`,
  );
}

export {
  notFound as GET,
  notFound as POST,
  notFound as PUT,
  notFound as PATCH,
  notFound as DELETE,
};
