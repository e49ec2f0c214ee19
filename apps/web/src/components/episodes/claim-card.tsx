"use client";

import { useEffect, useState } from "react";
import { StatusPill } from "@/components/ui/status-pill";
import { formatDuration } from "@/lib/format-duration";
import type { TEpisodeClaimView as TEpisodeClaim } from "@/trpc/router-types";

/**
 * The episode's work claim (SPEC section 4): owner, attempt (the fencing token), steals, and
 * the lease counting down between refreshes. The remaining time comes from the database clock
 * at read time; the browser only subtracts the seconds since, so a skewed laptop clock does not
 * show a lapsed lease as healthy.
 */
export function ClaimCard({ claim, readAt }: { claim: TEpisodeClaim | null; readAt: number }) {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    setElapsed(Date.now() - readAt);
    const timer = setInterval(() => setElapsed(Date.now() - readAt), 1_000);
    return () => clearInterval(timer);
  }, [readAt]);
  if (claim === null) {
    return <p className="note">No work claim: a worker takes one when it starts the episode.</p>;
  }
  const remaining = claim.leaseRemainingMs - elapsed;
  const held = claim.state === "claimed";
  const leaseState = remaining <= 0 ? "lapsed" : remaining < 30_000 ? "low" : "ok";
  return (
    <dl className="facts" data-testid="claim-card">
      <dt>State</dt>
      <dd>
        <StatusPill status={held && remaining <= 0 ? "lapsed" : claim.state} />
      </dd>
      <dt>Owner</dt>
      <dd className="mono">{claim.ownerNode}</dd>
      <dt>Attempt</dt>
      <dd>
        {claim.attempt}
        {claim.steals > 0 ? (
          <span className="inline-error">
            {" "}
            · stolen {claim.steals}× (a lease ran out while its holder was silent)
          </span>
        ) : null}
      </dd>
      {held ? (
        <>
          <dt>Lease</dt>
          <dd data-testid="lease-countdown">
            {remaining > 0
              ? `${formatDuration(remaining)} left`
              : `lapsed ${formatDuration(-remaining)} ago: another node may steal it`}
            <div className="lease-bar" data-state={leaseState}>
              {/* Drawn against the default 120 s lease (SPEC section 4). */}
              <span style={{ width: `${Math.max(0, Math.min(100, remaining / 1_200))}%` }} />
            </div>
          </dd>
        </>
      ) : null}
      {claim.errorDetail ? (
        <>
          <dt>Detail</dt>
          <dd className="mono">{claim.errorDetail}</dd>
        </>
      ) : null}
      <dt>Key</dt>
      <dd className="mono note">{claim.dedupeKey}</dd>
    </dl>
  );
}
