import Link from "next/link";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import type { TEpisodeDetailView as TEpisodeDetail } from "@/trpc/router-types";

interface TRecoveryEntry {
  at?: string;
  node?: string;
  policy?: string;
  outcome?: string;
  attempt?: number;
}

function asRecoveryEntry(value: unknown): TRecoveryEntry {
  if (typeof value !== "object" || value === null) return {};
  const entry = value as Record<string, unknown>;
  return {
    at: typeof entry.at === "string" ? entry.at : undefined,
    node: typeof entry.node === "string" ? entry.node : undefined,
    policy: typeof entry.policy === "string" ? entry.policy : undefined,
    outcome: typeof entry.outcome === "string" ? entry.outcome : undefined,
    attempt: typeof entry.attempt === "number" ? entry.attempt : undefined,
  };
}

/** Findings the episode raised, its deferred trigger requests, and its recovery history. */
export function EpisodeSideCards({ episode }: { episode: TEpisodeDetail }) {
  return (
    <>
      <section className="card">
        <div className="card-header">
          Findings <span className="count-badge">{episode.findings.length}</span>
        </div>
        {episode.findings.length === 0 ? (
          <div className="card-body note">This episode raised no finding.</div>
        ) : (
          <ul className="findings-list">
            {episode.findings.map((finding) => (
              <li key={finding.id}>
                <StatusPill status={finding.status === "active" ? finding.severity : "cleared"} />
                <div>
                  <div className="mono">{finding.findingKey}</div>
                  <div className="note">{finding.summary ?? finding.class}</div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card">
        <div className="card-header">Trigger requests</div>
        {episode.triggerRequests.length === 0 ? (
          <div className="card-body note">
            None open: the start that runs an episode consumes its request (the episode records the
            node), and an episode fired on a full node has none.
          </div>
        ) : (
          <ul className="findings-list">
            {episode.triggerRequests.map((request) => (
              <li key={request.id}>
                <StatusPill status={request.status} />
                <div>
                  <Link href={`/trigger-requests?actor=${episode.actorId}`} className="mono">
                    #{request.id}
                  </Link>
                  <div className="note">
                    from {request.sourceNode ?? "?"}
                    {request.claimedBy ? ` · taken by ${request.claimedBy}` : ""} ·{" "}
                    <TimeAgo iso={request.insertedAt} />
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card">
        <div className="card-header">Recovery history</div>
        {episode.recoveryHistory.length === 0 ? (
          <div className="card-body note">Never recovered or retried.</div>
        ) : (
          <ul className="findings-list" data-testid="recovery-history">
            {episode.recoveryHistory.map(asRecoveryEntry).map((entry, index) => (
              <li key={index}>
                <StatusPill status={entry.outcome ?? "unknown"} />
                <div>
                  <div>
                    {entry.policy ?? "?"} → attempt {entry.attempt ?? "?"}
                  </div>
                  <div className="note">
                    by {entry.node ?? "?"} · <TimeAgo iso={entry.at ?? null} />
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
