import { RateLimiterMemory } from "rate-limiter-flexible";

/**
 * Failed sign-ins are counted three ways (rate-limiter-flexible's "login endpoint protection"):
 * per IP+email (5 per 15 min: a typo-prone human never hits it, a guesser is slowed to a crawl),
 * per email from any IP (20 per hour: distributed guessing against one account), and per IP
 * across emails (100 per hour: password spraying). A success clears the IP+email counter.
 *
 * In-memory: one console process is the deployment we ship. Several console replicas would each
 * count on their own, multiplying the budgets by the replica count; swap in RateLimiterPostgres
 * then.
 */
export interface TSignInThrottle {
  /** Seconds to wait, or 0 when an attempt may proceed. */
  retryAfterSeconds(ip: string | null, email: string): Promise<number>;
  recordFailure(ip: string | null, email: string): Promise<void>;
  recordSuccess(ip: string | null, email: string): Promise<void>;
}

export function createSignInThrottle(): TSignInThrottle {
  const byIpEmail = new RateLimiterMemory({ keyPrefix: "ip_email", points: 5, duration: 15 * 60 });
  const byEmail = new RateLimiterMemory({ keyPrefix: "email", points: 20, duration: 60 * 60 });
  const byIp = new RateLimiterMemory({ keyPrefix: "ip", points: 100, duration: 60 * 60 });
  const keys = (ip: string | null, email: string) =>
    [
      [byIpEmail, `${ip ?? "-"}|${email}`],
      [byEmail, email],
      [byIp, ip ?? "-"],
    ] as const;

  return {
    async retryAfterSeconds(ip, email) {
      let waitMs = 0;
      for (const [limiter, key] of keys(ip, email)) {
        const state = await limiter.get(key);
        if (state !== null && state.consumedPoints >= limiter.points) {
          waitMs = Math.max(waitMs, state.msBeforeNext);
        }
      }
      return Math.ceil(waitMs / 1000);
    },
    async recordFailure(ip, email) {
      for (const [limiter, key] of keys(ip, email)) await limiter.penalty(key);
    },
    async recordSuccess(ip, email) {
      await byIpEmail.delete(`${ip ?? "-"}|${email}`);
    },
  };
}

const globalForThrottle = globalThis as typeof globalThis & {
  cycliumSignInThrottle?: TSignInThrottle;
};

export function getSignInThrottle(): TSignInThrottle {
  globalForThrottle.cycliumSignInThrottle ??= createSignInThrottle();
  return globalForThrottle.cycliumSignInThrottle;
}
