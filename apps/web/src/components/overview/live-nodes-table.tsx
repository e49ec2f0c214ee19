import type { TLiveNode } from "@/server/trpc/routers/overview.schema";
import { formatDuration } from "@/lib/format-duration";

function Muted({ children }: { children: string }) {
  return <span className="text-subtle">{children}</span>;
}

/** Heartbeats older than half the live window are flagged before the node drops off the list. */
function heartbeatState(node: TLiveNode, liveWindowSeconds: number): "fresh" | "late" {
  return node.lastSeenAgoMs > (liveWindowSeconds * 1000) / 2 ? "late" : "fresh";
}

export function LiveNodesTable({
  nodes,
  liveWindowSeconds,
}: {
  nodes: readonly TLiveNode[];
  liveWindowSeconds: number;
}) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Live nodes">
      <table className="table table-cards" data-testid="live-nodes-table">
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Kind</th>
            <th scope="col">Mode</th>
            <th scope="col">Stack</th>
            <th scope="col">Env</th>
            <th scope="col">Version</th>
            <th scope="col" className="num">
              Uptime
            </th>
            <th scope="col" className="num">
              Last heartbeat
            </th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((node) => {
            const heartbeat = heartbeatState(node, liveWindowSeconds);
            return (
              <tr key={node.identity}>
                <td className="cell-lead">
                  <div className="cell-primary mono">{node.identity}</div>
                  <div className="cell-secondary mono">
                    {node.host ?? "unknown host"}
                    {node.pid !== null ? ` · pid ${node.pid}` : ""}
                  </div>
                </td>
                <td data-label="Kind">
                  <span className="pill" data-kind={node.kind}>
                    {node.kind}
                  </span>
                </td>
                <td data-label="Mode">
                  <span className="pill pill-mode" data-mode={node.mode}>
                    {node.mode}
                  </span>
                </td>
                <td data-label="Stack">{node.stack ?? <Muted>—</Muted>}</td>
                <td data-label="Env">{node.env ?? <Muted>default</Muted>}</td>
                <td className="mono" data-label="Version">
                  {node.version ?? <Muted>—</Muted>}
                </td>
                <td className="num" data-label="Uptime" title={`Started ${node.startedAt}`}>
                  {formatDuration(node.uptimeMs)}
                </td>
                <td
                  className="num"
                  data-label="Last heartbeat"
                  title={
                    heartbeat === "late"
                      ? `Late: no heartbeat since ${node.lastSeenAt}; the node drops off this list after ${liveWindowSeconds} s`
                      : `Last heartbeat at ${node.lastSeenAt}`
                  }
                >
                  <span className="heartbeat" data-state={heartbeat} aria-hidden="true" />
                  {formatDuration(node.lastSeenAgoMs)} ago
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
