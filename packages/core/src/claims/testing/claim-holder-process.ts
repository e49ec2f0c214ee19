// A node holding work claims: acquires CLAIM_KEYS (comma-separated) with a LEASE_SECONDS lease
// and renews them every lease/3, as the heartbeat does, until it is killed.
import pg from "pg";
import { PostgresWorkClaims } from "../postgres-work-claims";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
const claims = new PostgresWorkClaims({ db: pool });
const owner = process.env.NODE_ID ?? `holder-${process.pid}`;
const leaseSeconds = Number(process.env.LEASE_SECONDS ?? "1");
const keys = (process.env.CLAIM_KEYS ?? "").split(",").filter((key) => key !== "");
const attempts = new Map<string, number>();
for (const dedupeKey of keys) {
  const acquired = await claims.acquire({ dedupeKey, owner, leaseSeconds });
  if (!acquired.ok) throw new Error(`could not acquire ${dedupeKey}`);
  attempts.set(dedupeKey, acquired.attempt);
}
setInterval(
  () => {
    for (const [dedupeKey, attempt] of attempts) {
      void claims.renew({ dedupeKey, owner, leaseSeconds, attempt }).catch(() => undefined);
    }
  },
  (leaseSeconds * 1000) / 3,
);
process.stdout.write(`${JSON.stringify({ event: "ready", pid: process.pid })}\n`);
