// A second console process for the sign-in throttle test: it records FAILURES wrong passwords
// for EMAIL from ADDRESS through the throttle the console uses, then exits 0.
import { createSignInThrottle } from "@cyclium/core/console";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? "", max: 2 });
const throttle = createSignInThrottle(pool);
const failures = Number(process.env.FAILURES ?? "0");
for (let i = 0; i < failures; i += 1) {
  await throttle.recordFailure(process.env.ADDRESS ?? "", process.env.EMAIL ?? "");
}
await pool.end();
