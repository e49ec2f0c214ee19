import { isCycliumError } from "@cyclium/core/console";
import { z, ZodError } from "zod";
import { cycliumErrorStatus } from "../errors/cyclium-error-status";

/** Error codes REST v1 answers with, beside core's own (`not_found`, `conflict`, ...). */
export type TRestErrorCode =
  | "unauthenticated"
  | "forbidden"
  | "cross_origin"
  | "invalid_input"
  | "payload_too_large"
  | "not_found"
  | "method_not_allowed"
  | "unavailable"
  | "internal";

// Automation must never see a cached answer to a live question.
const HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" };

/**
 * Every REST answer carries `x-request-id` (as Cloacina's server does), so a script can quote it
 * in a report; `restEndpoint` replaces it with the caller's own when the request sent a sane one.
 */
export function restJson(body: unknown, status = 200): Response {
  return Response.json(body, {
    status,
    headers: { ...HEADERS, "x-request-id": crypto.randomUUID() },
  });
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The last touch on an endpoint's answer: the caller's request id when it sent one, and the error
 * codes of the endpoint's dialect (Cloacina's trigger API names some of ours differently).
 */
export async function finishRestResponse(
  response: Response,
  request: Request,
  errorCodes?: Readonly<Record<string, string>>,
): Promise<Response> {
  let finished = response;
  if (errorCodes && response.status >= 400) {
    // Every REST answer is JSON; a body that is not stays as it is rather than becoming a 500.
    const body = (await response
      .clone()
      .json()
      .catch(() => ({}))) as { error?: unknown; code?: unknown };
    const renamed = typeof body.code === "string" ? errorCodes[body.code] : undefined;
    if (renamed !== undefined) {
      finished = restJson({ ...body, code: renamed }, response.status);
      for (const [name, value] of response.headers) {
        if (!finished.headers.has(name)) finished.headers.set(name, value);
      }
    }
  }
  const requestId = request.headers.get("x-request-id");
  if (requestId !== null && REQUEST_ID.test(requestId)) {
    finished.headers.set("x-request-id", requestId);
  }
  return finished;
}

/** SPEC section 12: errors are `{error, code}`; `error` is a message meant for a human. */
export const ZRestError = z.strictObject({
  error: z.string().min(1).describe("A sentence for a human; never a stack or SQL."),
  code: z
    .string()
    .min(1)
    .describe("What a script switches on, e.g. `invalid_input`, `not_found`, `trigger_not_found`."),
});

export function restError(status: number, code: string, error: string): Response {
  return restJson({ error, code } satisfies z.input<typeof ZRestError>, status);
}

/**
 * The one place REST maps failures to HTTP: CycliumError by its code (errors/cyclium-error-
 * status.ts, shared with tRPC), zod by 400 with the issues spelled out, anything else by a bare
 * 500 — the error itself is logged here and never sent (no stack, no SQL).
 */
export function restErrorFromException(error: unknown, what: string): Response {
  if (isCycliumError(error)) {
    const { http } = cycliumErrorStatus(error.code);
    // invalid_config maps to 500: a bug of ours, logged below like any other.
    if (http !== 500) return restError(http, error.code, error.message);
  }
  if (error instanceof ZodError) return restError(400, "invalid_input", z.prettifyError(error));
  console.error(`REST ${what} failed`, error);
  return restError(500, "internal", "Internal server error");
}

/**
 * A route file's answer to the methods it does not serve: Next.js answers those 405 with an empty
 * body; the API answers in its own error shape, with the `Allow` header.
 */
export function methodNotAllowed(...allowed: readonly string[]): (request: Request) => Response {
  return (request) => {
    const response = restError(
      405,
      "method_not_allowed",
      `${request.method} is not allowed here; use ${allowed.join(" or ")}.`,
    );
    response.headers.set("allow", allowed.join(", "));
    return response;
  };
}
