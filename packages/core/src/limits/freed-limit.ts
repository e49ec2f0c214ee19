/** A limited episode that ran on this node ended: the concurrency slots it held are free. */
export interface FreedLimit {
  /** The episode's env: its limit keys are scoped by it. */
  env: string | null;
  /** The concurrency keys it held (LimitRule.k), one slot each; empty under a rate limit only. */
  keys: readonly string[];
}

/**
 * The node's request poller, offered a freed limit first: true when it takes the wake-up over
 * (it polls at once and wakes the cluster only when that poll does not use the slot), false to
 * leave it to a NOTIFY of every poller of the env.
 */
export type LimitFreedListener = (freed: FreedLimit) => boolean;
