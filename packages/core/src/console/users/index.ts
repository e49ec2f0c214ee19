// Console users (SPEC section 10): how they are created, listed, promoted and disabled. Callers
// hash the password (argon2 lives in apps/web and the `cyclium` CLI, not in core or a worker).
export { findUserCredentials, type UserCredentials } from "./find-user-credentials";
export {
  insertUser,
  USER_ROLES,
  type InsertUserOptions,
  type InsertUserResult,
  type UserRole,
} from "./insert-user";
export { createUser, ensureUser, listUsers, setUserDisabled, setUserRole } from "./manage-users";
export {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  MIN_PASSWORD_SCORE,
  passwordProblem,
  ZUserEmail,
} from "./password-policy";
export { isUserRole, parseUserRole, type User } from "./user-row";
