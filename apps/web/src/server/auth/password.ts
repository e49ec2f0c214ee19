import { hashPassword, verifyPassword } from "./password-hash";

export { hashPassword, verifyPassword };

/**
 * A hash with the parameters real accounts get, made when the module loads rather than at the
 * first unknown email: made lazily, that first attempt paid a hash and a verify (about twice a
 * known account's cost) and so still told a prober the email was unknown.
 */
const dummyHash = hashPassword("cyclium-dummy-password-for-timing");

/**
 * Burns the same time as a real check when the email is unknown, so response times do not tell
 * an attacker which emails have accounts: apps/web/bench/sign-in-timing-bench.ts measures both
 * cases (medians of 50 within 2 % of each other; docs/benchmarks.md).
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(await dummyHash, password);
  return false;
}
