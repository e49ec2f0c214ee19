/** SQLSTATE codes core treats as expected outcomes rather than bugs. */
export const PG_UNIQUE_VIOLATION = "23505";

/** The fields of a `pg` DatabaseError that core inspects. */
export interface PgErrorLike {
  code: string;
  constraint?: string | undefined;
}

/**
 * Structural check instead of `instanceof DatabaseError`: pg-protocol may be loaded twice (ESM and
 * CJS copies), and then `instanceof` is silently false.
 */
export function isPgError(error: unknown): error is PgErrorLike {
  return (
    typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
  );
}

/** True for a unique violation, optionally only on the named index or constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!isPgError(error) || error.code !== PG_UNIQUE_VIOLATION) return false;
  return constraint === undefined || error.constraint === constraint;
}
