// Console users (SPEC section 10): how they are created, listed, promoted and disabled, and how
// their passwords are hashed, one way for the console and the `cyclium` CLI.
export { findUserCredentials, type UserCredentials } from "./find-user-credentials";
export {
  insertUser,
  USER_ROLES,
  type InsertUserOptions,
  type InsertUserResult,
  type UserRole,
} from "./insert-user";
export { createUser, ensureUser, listUsers, setUserDisabled, setUserRole } from "./manage-users";
export { hashPassword, verifyPassword } from "./password-hash";
export {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  MIN_PASSWORD_SCORE,
  passwordProblem,
  ZUserEmail,
} from "./password-policy";
export { isUserRole, parseUserRole, type User } from "./user-row";
