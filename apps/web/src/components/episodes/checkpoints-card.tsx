"use client";

import { useQuery } from "@tanstack/react-query";
import { ErrorCallout } from "@/components/ui/query-state";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

/** A `recovery_history` entry written by core's resolveResume when a restart met a checkpoint. */
interface TResumeEntry {
  at: string | null;
  node: string | null;
  attempt: number | null;
  checkpoint: number;
  phase: string | null;
  schemaVersion: number | null;
  outcome: "resumed_from_checkpoint" | "checkpoint_discarded";
  reason: string | null;
}

function asResumeEntry(value: unknown): TResumeEntry | null {
  if (typeof value !== "object" || value === null) return null;
  const entry = value as Record<string, unknown>;
  const outcome = entry.outcome;
  if (outcome !== "resumed_from_checkpoint" && outcome !== "checkpoint_discarded") return null;
  if (typeof entry.checkpoint !== "number") return null;
  return {
    at: typeof entry.at === "string" ? entry.at : null,
    node: typeof entry.node === "string" ? entry.node : null,
    attempt: typeof entry.attempt === "number" ? entry.attempt : null,
    checkpoint: entry.checkpoint,
    phase: typeof entry.phase === "string" ? entry.phase : null,
    schemaVersion: typeof entry.schema_version === "number" ? entry.schema_version : null,
    outcome,
    reason: typeof entry.reason === "string" ? entry.reason : null,
  };
}

/**
 * The episode's checkpoints (SPEC 12) and which of them a restart resumed from. A completed
 * episode's checkpoints are deleted, so the resumes recorded in its recovery history stay listed
 * even when the checkpoint row is gone.
 */
export function CheckpointsCard({
  episodeId,
  recoveryHistory,
  refreshMs,
}: {
  episodeId: string;
  recoveryHistory: unknown[];
  refreshMs: number;
}) {
  const trpc = useTRPC();
  const checkpoints = useQuery({
    ...trpc.episodes.checkpoints.queryOptions({ id: episodeId }),
    refetchInterval: useRefetchInterval(refreshMs),
  });
  const resumes = recoveryHistory.map(asResumeEntry).filter((entry) => entry !== null);
  const resumedFrom = new Map<number, TResumeEntry[]>();
  for (const entry of resumes) {
    resumedFrom.set(entry.checkpoint, [...(resumedFrom.get(entry.checkpoint) ?? []), entry]);
  }
  const rows = checkpoints.data ?? [];
  return (
    <section className="card" data-testid="checkpoints-card">
      <div className="card-header">
        Checkpoints <span className="count-badge">{rows.length}</span>
      </div>
      {checkpoints.isError && !checkpoints.data ? (
        <div className="card-body">
          <ErrorCallout error={checkpoints.error} what="the checkpoints" />
        </div>
      ) : checkpoints.isPending ? (
        <div className="card-body note">Loading checkpoints…</div>
      ) : rows.length === 0 ? (
        <div className="card-body note">
          No checkpoints stored: the strategy took none, or the episode completed (its checkpoints
          are deleted then).
        </div>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Checkpoints">
          <table className="table">
            <thead>
              <tr>
                <th>#</th>
                <th>Phase</th>
                <th>Schema</th>
                <th>Taken</th>
                <th>Resumed from</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((checkpoint) => (
                <tr key={checkpoint.id} data-testid={`checkpoint-${checkpoint.number}`}>
                  <td className="mono">{checkpoint.number}</td>
                  <td className="mono">{checkpoint.phase}</td>
                  <td>v{checkpoint.schemaVersion}</td>
                  <td>
                    <TimeAgo iso={checkpoint.insertedAt} />
                  </td>
                  <td>
                    {(resumedFrom.get(checkpoint.number) ?? []).map((entry, index) => (
                      <StatusPill
                        key={index}
                        status={entry.outcome === "resumed_from_checkpoint" ? "ok" : "refused"}
                        label={`${entry.outcome === "resumed_from_checkpoint" ? "resumed" : "discarded"} · attempt ${entry.attempt ?? "?"}`}
                      />
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {resumes.length > 0 ? (
        <ul className="findings-list" data-testid="checkpoint-resumes">
          {resumes.map((entry, index) => (
            <li key={index}>
              <StatusPill
                status={entry.outcome === "resumed_from_checkpoint" ? "ok" : "refused"}
                label={entry.outcome === "resumed_from_checkpoint" ? "resumed" : "discarded"}
              />
              <div>
                <div>
                  Attempt {entry.attempt ?? "?"}{" "}
                  {entry.outcome === "resumed_from_checkpoint"
                    ? "resumed from"
                    : "started from init instead of"}{" "}
                  checkpoint <span className="mono">#{entry.checkpoint}</span>
                  {entry.phase ? (
                    <>
                      {" "}
                      (<span className="mono">{entry.phase}</span>
                      {entry.schemaVersion !== null ? `, v${entry.schemaVersion}` : ""})
                    </>
                  ) : null}
                </div>
                <div className="note">
                  {entry.reason ? `${entry.reason} · ` : ""}on {entry.node ?? "?"} ·{" "}
                  <TimeAgo iso={entry.at} />
                </div>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
