// The REST API's OpenAPI 3.1 document, public like any API description: no credential, and the
// proxy lets every /api path through without the sign-in redirect.
import { buildOpenApiDocument } from "@/server/rest/openapi/openapi-document";
import { methodNotAllowed, restJson } from "@/server/rest/rest-response";

// Built from the zod schemas once per process: it changes only with the code.
let document: unknown;

export function GET(): Response {
  document ??= buildOpenApiDocument();
  return restJson(document);
}

// Any other method: a 405 in the API's error shape (Next.js would answer it with no body).
const otherMethod = methodNotAllowed("GET");
export { otherMethod as POST, otherMethod as PUT, otherMethod as PATCH, otherMethod as DELETE };
