import { assertColumn, type SqlParams } from "./sql-params";

/**
 * Stack scoping (SPEC section 8): a node of stack `x` sees rows stamped `x` and rows stamped
 * NULL (written before stacks were set, swept by any stack). A node without a stack sees all.
 */
export function stackScopeSql(column: string, stack: string | null, params: SqlParams): string {
  assertColumn(column);
  if (stack === null) return "TRUE";
  return `(${column} = ${params.add(stack)} OR ${column} IS NULL)`;
}
