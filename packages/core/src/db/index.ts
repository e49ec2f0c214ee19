export type { Queryable } from "./queryable";
export { withTransaction, type Connectable } from "./with-transaction";
export { isPgError, isUniqueViolation, PG_UNIQUE_VIOLATION, type PgErrorLike } from "./pg-error";
export {
  classifyDatabaseError,
  isTransientDatabaseError,
  type DatabaseErrorKind,
} from "./transient-error";
export { PreparingClient } from "./preparing-client";
