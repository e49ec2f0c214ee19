import { CycliumError } from "../errors/index";

/**
 * Collects the parameters of one query while its WHERE clause is assembled from fragments, so
 * each fragment can take the next `$n` without the caller counting.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(initial: readonly unknown[] = []) {
    this.values.push(...initial);
  }

  /** Adds a value and returns its placeholder, e.g. `$3`. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A piece of SQL with the parameters it needs, for callers that do not share a SqlParams. */
export interface SqlFragment {
  text: string;
  values: unknown[];
}

const COLUMN = /^(?:[a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$/;

/**
 * Column names are spliced into SQL text, never passed as parameters; they come from code, but a
 * typo or a value that came from a request would be an injection, so only plain (optionally
 * qualified) snake_case names are accepted.
 */
export function assertColumn(column: string): string {
  if (!COLUMN.test(column)) {
    throw new CycliumError("invalid_input", `Not a plain column name: ${column}`);
  }
  return column;
}
