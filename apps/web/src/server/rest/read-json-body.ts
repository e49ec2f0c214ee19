import { CycliumError } from "@cyclium/core/errors";
import { z } from "zod";
import { describeInputProblem, findInputProblem } from "../input/untrusted-input";

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
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > MAX_BODY_BYTES) {
    throw new CycliumError("invalid_input", `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CycliumError("invalid_input", "Request body is not valid UTF-8.");
  }
  let json: unknown = {};
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch {
      throw new CycliumError("invalid_input", "Request body is not valid JSON.");
    }
  }
  const problem = findInputProblem(json);
  if (problem !== null) throw new CycliumError("invalid_input", describeInputProblem(problem));
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new CycliumError(
      "invalid_input",
      `Invalid request body: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
