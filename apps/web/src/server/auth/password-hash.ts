import { hash, verify } from "@node-rs/argon2";

/**
 * Argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): ~25 ms per hash on one
 * core here, cheap for a sign-in and expensive for an offline guesser. The PHC string stores the
 * parameters, so raising them later still verifies old hashes. Here, not in core, so a worker
 * never installs the native hash (issue 30); the `cyclium` CLI's user create uses the same
 * parameters (packages/cli/src/password-hash.ts).
 */
// The algorithm is left at the library default, Argon2id (its `Algorithm` is an ambient const
// enum, which verbatimModuleSyntax cannot import).
const ARGON2_OPTIONS = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a failed sign-in, not a 500.
    return false;
  }
}
