import { performance } from "node:perf_hooks";
import { silentLogger, type Logger } from "../telemetry/index";
import { startHeartbeat, type HeartbeatOptions } from "./heartbeat";
import type { LeaseKeeper } from "./lease-keeper";
import type { LeaseReckoning } from "./lease-reckoning";
import { DEFAULT_LEASE_SECONDS, type ClaimFence, type WorkClaims } from "./work-claims";

export interface RunWithClaimOptions {
  claims: WorkClaims;
  dedupeKey: string;
  owner: string;
  leaseSeconds?: number;
  /** The node's shutdown signal. */
  signal?: AbortSignal;
  logger?: Logger;
  heartbeat?: Pick<HeartbeatOptions, "safetyMarginMs" | "renewTimeoutMs" | "retryDelayMs">;
  /**
   * The node's lease keeper (same adapter, owner and lease): the claim joins it, one renew per
   * tick for all of the node's claims, instead of a heartbeat of its own (`heartbeat` and
   * `signal` are then the keeper's).
   */
  keeper?: LeaseKeeper;
  /** With `keeper`: the reckoning it keeps for this claim (the caller reads it afterwards). */
  lease?: LeaseReckoning;
}

/** What the work gets: abort when `signal` fires, and present `fence` on journal writes. */
export interface ClaimedWork {
  signal: AbortSignal;
  attempt: number;
  stolen: boolean;
  /**
   * The fence for SQL writes that check `cyclium_work_claims` in their own statement; null unless
   * the adapter declares `usesSqlFence` (an adapter keeping its claims elsewhere has no row there).
   */
  fence: ClaimFence | null;
  /**
   * True while this attempt still holds the claim, asked of the adapter (`holds`): the check
   * before a side effect outside the fenced statements (SPEC 12). Always true with claims off.
   */
  holds: () => Promise<boolean>;
  /**
   * The work's own final write marked the claim `done` (in the same transaction as the result):
   * no separate complete is sent when it returns.
   */
  markReleased: () => void;
  /**
   * Ends the heartbeat without aborting the work and resolves once a renew in flight is answered.
   * Await it right before the work's own write that releases the claim: a renew reaching the
   * database after that write finds the claim `done` and answers not_owner, reported as a lost
   * claim (renew_failed, the SPEC's alert, and an aborted signal) for work that succeeded.
   * Renewing during that write gains nothing: the renew would wait on the row lock it holds.
   */
  stopHeartbeat: () => Promise<void>;
}

/** A claim the caller acquired itself (e.g. many at once with the episodes they start). */
export interface AcquiredClaim {
  attempt: number;
  stolen: boolean;
  /** See ClaimedWork.fence; when omitted it is derived from the adapter's `usesSqlFence`. */
  fence?: ClaimFence | null;
  /** `performance.now()` just before the acquire was sent (see HeartbeatOptions). */
  leaseStartedAt: number;
}

export type RunWithClaimResult<T> =
  | { kind: "busy" }
  /** `released` is false when the claim was lost before it could be marked done. */
  | { kind: "done"; value: T; released: boolean };

const NEVER_ABORTED = new AbortController().signal;

/**
 * The claim life cycle around one piece of work: acquire, heartbeat while it runs, `done` when it
 * returns, `failed` when it throws (the error is rethrown). Completion and failure are fenced on
 * the acquired attempt, so a zombie cannot release the claim of the node that took over.
 */
export async function runWithClaim<T>(
  options: RunWithClaimOptions,
  work: (claimed: ClaimedWork) => Promise<T>,
): Promise<RunWithClaimResult<T>> {
  const leaseStartedAt = performance.now();
  const acquired = await options.claims.acquire({
    dedupeKey: options.dedupeKey,
    owner: options.owner,
    leaseSeconds: options.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
  });
  if (!acquired.ok) return { kind: "busy" };
  // Only the contract's fields: whatever else an adapter returns never becomes a SQL fence.
  const claim = { attempt: acquired.attempt, stolen: acquired.stolen, leaseStartedAt };
  return runWithAcquiredClaim(options, claim, work);
}

/** runWithClaim after the acquire: heartbeat while `work` runs, then `done` or `failed`. */
export async function runWithAcquiredClaim<T>(
  options: RunWithClaimOptions,
  acquired: AcquiredClaim,
  work: (claimed: ClaimedWork) => Promise<T>,
): Promise<Extract<RunWithClaimResult<T>, { kind: "done" }>> {
  const { claims, dedupeKey, owner } = options;
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const logger = options.logger ?? silentLogger;
  const { attempt, leaseStartedAt } = acquired;
  const held: ClaimFence = { dedupeKey, owner, attempt };
  const fence = acquired.fence !== undefined ? acquired.fence : sqlFence(claims, held);

  // Claims that are off have nothing to renew: no timers, no queries.
  const heartbeat =
    claims.off === true
      ? null
      : options.keeper !== undefined
        ? options.keeper.hold({ dedupeKey, attempt, leaseStartedAt, lease: options.lease })
        : startHeartbeat({
            ...options.heartbeat,
            claims,
            dedupeKey,
            owner,
            attempt,
            leaseSeconds,
            leaseStartedAt,
            logger,
            ...(options.signal ? { signal: options.signal } : {}),
          });
  const signal = heartbeat?.signal ?? options.signal ?? NEVER_ABORTED;

  let releasedByWork = false;
  const markReleased = (): void => {
    releasedByWork = true;
  };
  let value: T;
  try {
    value = await work({
      signal,
      attempt,
      stolen: acquired.stolen,
      fence,
      holds: () => (claims.off === true ? Promise.resolve(true) : claims.holds(held)),
      markReleased,
      stopHeartbeat: () => heartbeat?.stopAndSettle() ?? Promise.resolve(),
    });
  } catch (error) {
    heartbeat?.stop();
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    await claims
      .fail({ dedupeKey, owner, attempt, errorDetail: detail.slice(0, 4000) })
      .catch((failError: unknown) => {
        // The lease will lapse on its own; the work's error is the one that matters.
        logger.warn({ err: failError, dedupe_key: dedupeKey }, "could not mark claim failed");
      });
    throw error;
  }
  heartbeat?.stop();
  if (releasedByWork) return { kind: "done", value, released: true };
  const released = await claims.complete({ dedupeKey, owner, attempt });
  return { kind: "done", value, released: released.ok };
}

/** The fence SQL writes present: only claims that live in `cyclium_work_claims` have one. */
function sqlFence(claims: WorkClaims, held: ClaimFence): ClaimFence | null {
  return claims.usesSqlFence === true && claims.off !== true ? held : null;
}
