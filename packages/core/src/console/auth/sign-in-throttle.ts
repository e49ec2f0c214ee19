import type { Queryable } from "../../db/index";

/**
 * Failed sign-ins, counted in PostgreSQL (`cyclium_sign_in_attempts`) so every console process
 * shares one limit: the product has no Redis, and an in-memory count multiplied the budget by the
 * number of replicas.
 *
 * Keyed per (account, client address), with exponential backoff: the first `FREE_FAILURES` wrong
 * passwords cost nothing (a typo-prone human), then each one blocks that pair for 30 s, 60 s, …
 * up to 15 min. There is deliberately no per-account-only limit: that is what let twenty wrong
 * passwords from made-up addresses lock any account, admin included, for an hour (issue 13). An
 * attacker now slows down only their own address, and the owner at theirs signs in as usual.
 * Distributed guessing is still paid per address (5 free guesses, then minutes each) on top of
 * argon2; spraying one password over many accounts from one address is capped by
 * `ADDRESS_FAILURES_PER_HOUR`. A success clears its pair; a pair quiet for a day starts over.
 */
export interface SignInThrottle {
  /** Seconds to wait, or 0 when an attempt may proceed. */
  retryAfterSeconds(ip: string | null, email: string): Promise<number>;
  recordFailure(ip: string | null, email: string): Promise<void>;
  recordSuccess(ip: string | null, email: string): Promise<void>;
}

export const FREE_FAILURES = 5;
const FIRST_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 15 * 60;
const ADDRESS_FAILURES_PER_HOUR = 100;

/** An unknown address (no peer address: tests, scripts in-process) is one shared key. */
const addressKey = (ip: string | null) => (ip === null || ip === "" ? "-" : ip.slice(0, 64));
const accountKey = (email: string) => email.slice(0, 255);

export function createSignInThrottle(db: Queryable): SignInThrottle {
  return {
    async retryAfterSeconds(ip, email) {
      const { rows } = await db.query<{ pair: number | null; address: number | null }>(
        `SELECT
           (SELECT ceil(extract(epoch FROM blocked_until - now()))::int
              FROM cyclium_sign_in_attempts
             WHERE account = $1 AND address = $2 AND blocked_until > now()) AS pair,
           (SELECT CASE WHEN sum(failures) >= $3
                   THEN ceil(extract(epoch FROM min(last_failure_at) + interval '1 hour' - now()))::int
                   END
              FROM cyclium_sign_in_attempts
             WHERE address = $2 AND address <> '-'
               AND last_failure_at > now() - interval '1 hour') AS address`,
        [accountKey(email), addressKey(ip), ADDRESS_FAILURES_PER_HOUR],
      );
      const row = rows[0];
      return Math.max(0, row?.pair ?? 0, row?.address ?? 0);
    },

    async recordFailure(ip, email) {
      // One statement, so two processes counting the same pair at once never lose a failure.
      // (A CTE feeding an UPDATE would not do: the outer statement cannot see the CTE's insert.)
      const failures = `CASE WHEN a.last_failure_at < now() - interval '1 day' THEN 1
                             ELSE a.failures + 1 END`;
      await db.query(
        `INSERT INTO cyclium_sign_in_attempts AS a (account, address, failures, last_failure_at)
         VALUES ($1, $2, 1, now())
         ON CONFLICT (account, address) DO UPDATE SET
           failures = ${failures},
           last_failure_at = now(),
           blocked_until = CASE WHEN ${failures} >= $3 THEN
             now() + make_interval(secs => least($5::double precision,
               $4::double precision * power(2, ${failures} - $3)))
           END`,
        [accountKey(email), addressKey(ip), FREE_FAILURES, FIRST_DELAY_SECONDS, MAX_DELAY_SECONDS],
      );
    },

    async recordSuccess(ip, email) {
      // Also sweeps this account's pairs that have been quiet for a day: the table stays small
      // without a background job.
      await db.query(
        `DELETE FROM cyclium_sign_in_attempts
          WHERE account = $1
            AND (address = $2 OR last_failure_at < now() - interval '1 day')`,
        [accountKey(email), addressKey(ip)],
      );
    },
  };
}
