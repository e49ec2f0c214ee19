import { CycliumError } from "@cyclium/core/errors";
import { z } from "zod";
import { describeInputProblem, findInputProblem } from "../input/untrusted-input";

/** Fire bodies are a small context object; 64 KiB is generous and bounds what we parse. */
const MAX_BODY_BYTES = 64 * 1024;

/** Errors thrown here, by the field they name, until the endpoint records them as refusals. */
const bodyRefusals = new WeakMap<object, { field: string; message: string }>();

function refuseBody(field: string, message: string): CycliumError {
  const error = new CycliumError("invalid_input", message, { details: { field } });
  bodyRefusals.set(error, { field, message: error.message });
  return error;
}

/**
 * The field and message of a body this module refused (null for any other error): the REST
 * endpoint audits it, since it is thrown before the handler's audited work begins.
 */
export function bodyRefusalOf(error: unknown): { field: string; message: string } | null {
  return typeof error === "object" && error !== null ? (bodyRefusals.get(error) ?? null) : null;
}

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
    throw refuseBody("(body)", `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw refuseBody("(body)", "Request body is not valid UTF-8.");
  }
  let json: unknown = {};
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch {
      throw refuseBody("(body)", "Request body is not valid JSON.");
    }
  }
  const problem = findInputProblem(json);
  if (problem !== null) throw refuseBody(problem.path, describeInputProblem(problem));
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw refuseBody(
      parsed.error.issues[0]?.path.map(String).join(".") || "(body)",
      `Invalid request body: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
