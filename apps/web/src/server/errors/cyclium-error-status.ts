// The one place where core's expected failures become transport errors: tRPC codes for the
// console, HTTP statuses for REST v1 (SPEC section 9). Both answer with the error's own message,
// which CycliumError guarantees is meant for a user.
import { assertNever, type CycliumErrorCode } from "@cyclium/core/console";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

export interface TErrorStatus {
  http: number;
  trpc: TRPC_ERROR_CODE_KEY;
}

export function cycliumErrorStatus(code: CycliumErrorCode): TErrorStatus {
  switch (code) {
    case "invalid_input":
      return { http: 400, trpc: "BAD_REQUEST" };
    case "not_found":
      return { http: 404, trpc: "NOT_FOUND" };
    case "conflict":
    case "busy":
    case "not_owner":
    case "fenced":
    case "lease_lost":
    case "lease_lapsed":
      return { http: 409, trpc: "CONFLICT" };
    case "shutdown":
      return { http: 503, trpc: "SERVICE_UNAVAILABLE" };
    case "invalid_config":
      return { http: 500, trpc: "INTERNAL_SERVER_ERROR" };
    default:
      return assertNever(code);
  }
}
