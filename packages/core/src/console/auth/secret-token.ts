import { createHash, randomBytes } from "node:crypto";

/**
 * Opaque bearer secrets (session ids, API tokens): 32 random bytes from the OS CSPRNG, base64url.
 * Only their SHA-256 is stored, so a leaked database row cannot be replayed as a cookie or token.
 * A fast hash is right here (unlike passwords): 256 bits of entropy cannot be brute-forced.
 */
export function generateSecretToken(prefix = ""): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

export function hashSecretToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
