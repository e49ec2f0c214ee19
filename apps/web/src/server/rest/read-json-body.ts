import { CycliumError } from "@cyclium/core/console";
import { z } from "zod";
import { describeInputProblem, findInputProblem } from "../input/untrusted-input";

/** Fire bodies are a small context object; 64 KiB is generous and bounds what we parse. */
const MAX_BODY_BYTES = 64 * 1024;

/** Refusals of a body or query, by the field they name, until the endpoint records them. */
const bodyRefusals = new WeakMap<object, TBodyRefusal>();

export interface TBodyRefusal {
  field: string;
  message: string;
  /** The code answered (400), when not `invalid_input`: Cloacina's `invalid_pagination`. */
  code: string;
}

/** An `invalid_input` error for a request's body or query, audited by the REST endpoint. */
export function refuseBody(field: string, message: string, code = "invalid_input"): CycliumError {
  const error = new CycliumError("invalid_input", message, { details: { field } });
  bodyRefusals.set(error, { field, message: error.message, code });
  return error;
}

/**
 * The field and message of a body or query refused here (null for any other error): the REST
 * endpoint audits it, since it is thrown before the handler's audited work begins.
 */
export function bodyRefusalOf(error: unknown): TBodyRefusal | null {
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

/** The request's query string validated by `schema`; a mismatch is `invalid_input` (400). */
export function readQuery<S extends z.ZodType>(
  request: Request,
  schema: S,
  code = "invalid_input",
): z.output<S> {
  const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    throw refuseBody(
      parsed.error.issues[0]?.path.map(String).join(".") || "(query)",
      z.prettifyError(parsed.error),
      code,
    );
  }
  return parsed.data;
}
