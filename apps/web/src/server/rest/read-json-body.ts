import { CycliumError } from "@cyclium/core/errors";
import { z } from "zod";

/** Fire bodies are a small context object; 64 KiB is generous and bounds what we parse. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The request's JSON body validated by `schema`; an empty body counts as `{}`. Malformed JSON,
 * an oversized body and a schema mismatch are `invalid_input` (400) with a message that says
 * which.
 */
export async function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<z.output<S>> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) {
    throw new CycliumError("invalid_input", `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
  }
  let json: unknown = {};
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch {
      throw new CycliumError("invalid_input", "Request body is not valid JSON.");
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new CycliumError(
      "invalid_input",
      `Invalid request body: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
