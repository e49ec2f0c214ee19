import { hash } from "@node-rs/argon2";

/**
 * Argon2id with the console's parameters (apps/web/src/server/auth/password-hash.ts, OWASP's
 * minimum: 19 MiB, 2 passes, 1 lane), so `cyclium user create` stores what the console's sign-in
 * verifies. The PHC string carries the parameters: a difference here would still verify, only
 * at another cost. Not in core: a worker never installs the native hash (issue 30).
 */
const ARGON2_OPTIONS = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}
