/**
 * The console's one check of untrusted input (tRPC input, REST params, query and body), run
 * after authorization and before any schema or query sees it (issue 13: a NUL byte reached
 * PostgreSQL, which refuses it in text, and input nested 5,000 deep overflowed the stack; both
 * answered 500). Every string, object key included, must be well-formed UTF-16 without NUL:
 * PostgreSQL text cannot hold U+0000 and a lone surrogate cannot be encoded as UTF-8. The walk
 * is iterative, so the depth it measures cannot overflow the stack that measures it.
 */

/** Deeper than any input the console sends (a fire context is a few levels). */
export const MAX_INPUT_DEPTH = 32;
/** Values in one input: a 64 KiB context holds far fewer. */
export const MAX_INPUT_VALUES = 20_000;

export interface TInputProblem {
  /** Where, as the schema's error would say it: `context.items[3]`, or `(input)`. */
  path: string;
  message: string;
}

// eslint-disable-next-line no-control-regex -- NUL is what is being looked for.
const NUL = /\u0000/;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function stringProblem(text: string): string | null {
  if (NUL.test(text)) return "contains a NUL character";
  if (LONE_SURROGATE.test(text)) return "is not valid Unicode (a lone surrogate)";
  return null;
}

const describePath = (segments: readonly (string | number)[]): string =>
  segments.length === 0
    ? "(input)"
    : segments
        .map((segment, index) =>
          typeof segment === "number" ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
        )
        .join("");

/** The first problem found, or null when the input may go on to its schema. */
export function findInputProblem(input: unknown): TInputProblem | null {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value: input, path: [] }];
  let seen = 0;
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (++seen > MAX_INPUT_VALUES) {
      return { path: "(input)", message: `has more than ${MAX_INPUT_VALUES} values` };
    }
    if (typeof value === "string") {
      const problem = stringProblem(value);
      if (problem !== null) return { path: describePath(path), message: problem };
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) {
      return {
        path: describePath(path),
        message: `is nested deeper than ${MAX_INPUT_DEPTH} levels`,
      };
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, path: [...path, index] }));
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = stringProblem(key);
      if (keyProblem !== null) {
        return { path: describePath(path), message: `has a key that ${keyProblem}` };
      }
      pending.push({ value: item, path: [...path, key] });
    }
  }
  return null;
}

export const describeInputProblem = (problem: TInputProblem): string =>
  `Invalid input: ${problem.path} ${problem.message}.`;
