"use client";

import { useQuery } from "@tanstack/react-query";
import { ErrorCallout } from "@/components/ui/query-state";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { formatDuration } from "@/lib/format-duration";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

type TCircuitBreaker = TRouterOutputs["actors"]["circuitBreakers"][number];

const REFRESH_MS = 3_000;

function stateDetail(breaker: TCircuitBreaker) {
  switch (breaker.state) {
    case "closed":
      return breaker.consecutiveFailures > 0
        ? `${breaker.consecutiveFailures} of ${breaker.threshold} recent finishes failed`
        : "fires pass";
    case "open":
      return (
        <>
          half-open <TimeAgo iso={breaker.halfOpenAt} />; no fires until then
        </>
      );
    case "half_open":
      return breaker.allowsFire
        ? "the next fire is let through as a trial"
        : "a trial episode is in flight; its outcome closes or reopens the breaker";
    default: {
      // Exhaustive without importing core into the browser bundle: a new state fails typecheck.
      const unexpected: never = breaker.state;
      return String(unexpected);
    }
  }
}

/**
 * Circuit-breaker state of every expectation a breaker guards (every trigger kind but manual,
 * unless switched off; SPEC 12), derived from its newest finished episodes in the inspected env,
 * so every node reads the same state.
 */
export function CircuitBreakersSection({ env }: { env: string | null | undefined }) {
  const trpc = useTRPC();
  const breakers = useQuery({
    ...trpc.actors.circuitBreakers.queryOptions({ env }),
    refetchInterval: useRefetchInterval(REFRESH_MS),
  });
  if (breakers.isError && !breakers.data) {
    return <ErrorCallout error={breakers.error} what="the circuit breakers" />;
  }
  if (breakers.isPending) {
    return <div className="panel panel-loading">Loading circuit breakers…</div>;
  }
  if (breakers.data.length === 0) {
    return (
      <p className="note" data-testid="circuit-breakers-empty">
        No expectation is guarded by a circuit breaker.
      </p>
    );
  }
  return (
    <div
      className="table-wrap"
      tabIndex={0}
      role="region"
      aria-label="Circuit breakers"
      data-testid="circuit-breakers"
    >
      <table className="table">
        <thead>
          <tr>
            <th>Actor</th>
            <th>Expectation</th>
            <th>State</th>
            <th>Detail</th>
            <th>Threshold</th>
            <th>Half-open after</th>
          </tr>
        </thead>
        <tbody>
          {breakers.data.map((breaker) => (
            <tr
              key={`${breaker.actorId}/${breaker.expectationId}`}
              data-testid={`circuit-breaker-${breaker.actorId}-${breaker.expectationId}`}
            >
              <td className="mono">{breaker.actorId}</td>
              <td className="mono">{breaker.expectationId}</td>
              <td>
                <StatusPill
                  status={
                    breaker.state === "closed"
                      ? "ok"
                      : breaker.state === "open"
                        ? "failed"
                        : "pending"
                  }
                  label={breaker.state.replace("_", "-")}
                />
              </td>
              <td className="note">{stateDetail(breaker)}</td>
              <td>{breaker.threshold} failures</td>
              <td>{formatDuration(breaker.halfOpenAfterMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
