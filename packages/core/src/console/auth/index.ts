// Access to the console (SPEC section 10): sessions behind cookies, API tokens for automation,
// and the sign-in throttle every console process shares. Secrets are random and stored only as
// their SHA-256.
export {
  API_TOKEN_PREFIX,
  authenticateApiToken,
  createApiToken,
  listApiTokens,
  apiTokenReachesTenant,
  revokeApiToken,
  type ApiToken,
} from "./api-tokens";
export { generateSecretToken, hashSecretToken } from "./secret-token";
export {
  endSession,
  findSession,
  openSession,
  type FindSessionOptions,
  type OpenSessionOptions,
  type SessionUser,
} from "./sessions";
export { createSignInThrottle, FREE_FAILURES, type SignInThrottle } from "./sign-in-throttle";
