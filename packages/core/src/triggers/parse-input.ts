import { z } from "zod";
import { CycliumError } from "../errors/index";

/** zod at the boundary: a bad request is an expected `invalid_input` (HTTP 400), not a bug. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new CycliumError("invalid_input", z.prettifyError(parsed.error));
  }
  return parsed.data;
}
