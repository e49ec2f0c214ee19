import { hashPassword, verifyPassword } from "@cyclium/core/users";

// One way to hash for the console and the `cyclium` CLI: core's Argon2id.
export { hashPassword, verifyPassword };

let dummyHash: Promise<string> | undefined;

/**
 * Burns the same time as a real check when the email is unknown, so response times do not tell
 * an attacker which emails have accounts.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword("cyclium-dummy-password-for-timing");
  await verifyPassword(await dummyHash, password);
  return false;
}
