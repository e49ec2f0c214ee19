// Console users (SPEC section 10): how they are created and how their passwords are hashed, one
// way for the console and the `cyclium` CLI.
export {
  insertUser,
  USER_ROLES,
  type InsertUserOptions,
  type InsertUserResult,
  type UserRole,
} from "./insert-user";
export { hashPassword, verifyPassword } from "./password-hash";
