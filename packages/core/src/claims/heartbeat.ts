import { LeaseKeeper, type Heartbeat, type LeaseKeeperOptions } from "./lease-keeper";

export type { Heartbeat, HeartbeatEnd } from "./lease-keeper";

export interface HeartbeatOptions extends LeaseKeeperOptions {
  dedupeKey: string;
  /** The attempt that was acquired; renewals are fenced on it. */
  attempt?: number;
  /** `performance.now()` taken just before the acquire was sent (see HoldClaimOptions). */
  leaseStartedAt?: number;
}

/**
 * Keeps one claim alive while its work runs: a lease keeper of its own holding that one claim
 * (see LeaseKeeper), for work that runs now and then (sweeps, the pruner). A node's episodes
 * share the runner's keeper instead: one renew statement per tick for all of them.
 */
export function startHeartbeat(options: HeartbeatOptions): Heartbeat {
  const { dedupeKey, attempt, leaseStartedAt, ...keeperOptions } = options;
  const keeper = new LeaseKeeper(keeperOptions);
  const heartbeat = keeper.hold({ dedupeKey, attempt, leaseStartedAt });
  void heartbeat.ended.then(() => keeper.close());
  return heartbeat;
}
