import type { Retry } from "../actors/index";

/**
 * How long a failed attempt waits before the next (SPEC section 16), or undefined when it is
 * final: no `retry` on the expectation, `fail(..., { retry: false })`, or `maxAttempts` runs
 * reached (`attempt` counts every run, recovery restarts and hand-backs included). Exponential,
 * capped, with jitter: a delay drawn between half and all of initialMs x factor^(attempt-1), so
 * episodes failing together do not all come back at once.
 */
export function retryDelayMs(
  retry: Retry | undefined,
  attempt: number,
  retryable: boolean,
  random: () => number = Math.random,
): number | undefined {
  if (retry === undefined || !retryable || attempt >= retry.maxAttempts) return undefined;
  const { initialMs, maxMs, factor } = retry.backoff;
  const full = Math.min(maxMs, initialMs * factor ** (attempt - 1));
  return Math.round(full / 2 + random() * (full / 2));
}
