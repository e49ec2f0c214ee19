import { TRPCClientError } from "@trpc/client";
import { mutationErrorMessage } from "@/app/admin/mutation-error";

/** What to show when a query fails: the server's own message for expected errors. */
export function queryErrorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const data: unknown = error.data;
    const code = typeof data === "object" && data !== null && "code" in data ? data.code : null;
    if (code === "UNAUTHORIZED") return "Your session ended. Sign in again.";
    return error.message;
  }
  return "The console could not reach its server.";
}

export { mutationErrorMessage };
