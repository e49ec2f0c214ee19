import { TRPCClientError } from "@trpc/client";
import { z } from "zod";

const ZFlattenedError = z.object({
  formErrors: z.array(z.string()),
  fieldErrors: z.record(z.string(), z.array(z.string()).optional()),
});

/**
 * What to tell the admin when a mutation fails: the first message of each invalid field for bad
 * input (the raw message is a JSON dump of zod issues), the server's own message otherwise (tRPC
 * already turns internals into "Internal server error").
 */
export function mutationErrorMessage(error: unknown): string {
  if (!(error instanceof TRPCClientError)) return "Something went wrong. Try again.";
  const data: unknown = error.data;
  const flattened = ZFlattenedError.safeParse(
    typeof data === "object" && data !== null && "zodError" in data ? data.zodError : null,
  );
  if (flattened.success) {
    const messages = [
      ...flattened.data.formErrors,
      ...Object.values(flattened.data.fieldErrors).map((list) => list?.[0]),
    ].filter((message): message is string => typeof message === "string");
    if (messages.length > 0) return messages.join(" ");
  }
  return error.message;
}
