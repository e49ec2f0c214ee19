"use client";

import { useQuery } from "@tanstack/react-query";
import { JsonBlock } from "@/components/ui/json-block";
import { ErrorCallout } from "@/components/ui/query-state";
import { TimeAgo } from "@/components/ui/time-ago";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

/**
 * The outputs the episode wrote with `ctx.output` (issue 20): one row per output key, written
 * once however often the episode was re-run; `attempt` says which run's write won.
 */
export function OutputsCard({ episodeId, refreshMs }: { episodeId: string; refreshMs: number }) {
  const trpc = useTRPC();
  const outputs = useQuery({
    ...trpc.episodes.outputs.queryOptions({ id: episodeId }),
    refetchInterval: useRefetchInterval(refreshMs),
  });
  const rows = outputs.data ?? [];
  return (
    <section className="card" data-testid="outputs-card">
      <div className="card-header">
        Outputs <span className="count-badge">{rows.length}</span>
      </div>
      {outputs.isError && !outputs.data ? (
        <div className="card-body">
          <ErrorCallout error={outputs.error} what="the outputs" />
        </div>
      ) : outputs.isPending ? (
        <div className="card-body note">Loading outputs…</div>
      ) : rows.length === 0 ? (
        <div className="card-body note">No outputs: the strategy wrote none with ctx.output.</div>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Outputs">
          <table className="table">
            <thead>
              <tr>
                <th>Key</th>
                <th>Attempt</th>
                <th>Written</th>
                <th>Value</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((output) => (
                <tr key={output.id} data-testid={`output-${output.outputKey}`}>
                  <td className="mono">{output.outputKey}</td>
                  <td>{output.attempt}</td>
                  <td>
                    <TimeAgo iso={output.insertedAt} />
                  </td>
                  <td>
                    <JsonBlock value={output.value} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
