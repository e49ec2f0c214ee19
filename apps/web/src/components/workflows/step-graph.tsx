import Link from "next/link";
import { StatusPill } from "@/components/ui/status-pill";
import type { TRouterOutputs } from "@/trpc/router-types";

type TGraphNode = NonNullable<TRouterOutputs["workflows"]["instance"]>["nodes"][number];

/**
 * The instance's DAG left to right: one column per depth (steps whose dependencies are all in
 * earlier columns), each step with its state, attempt and episode.
 */
export function StepGraph({ nodes }: { nodes: TGraphNode[] }) {
  const depth = Math.max(0, ...nodes.map((node) => node.depth));
  const columns = Array.from({ length: depth + 1 }, (_, level) =>
    nodes.filter((node) => node.depth === level),
  );
  return (
    <div className="step-graph" data-testid="step-graph">
      {columns.map((column, level) => (
        <div className="step-column" key={level}>
          {column.map((node) => (
            <div
              className="step-node"
              key={node.name}
              data-status={node.status}
              data-testid={`step-${node.name}`}
            >
              <div className="mode-cell" style={{ justifyContent: "space-between" }}>
                <span className="step-node-name">{node.name}</span>
                <StatusPill status={node.status} />
              </div>
              {node.actor ? (
                <div className="step-node-sub">
                  {node.actor}/{node.expectation}
                </div>
              ) : null}
              <div className="step-node-deps">
                {node.dependsOn.length > 0 ? `after ${node.dependsOn.join(", ")}` : "first"}
                {node.attempt > 1 ? ` · attempt ${node.attempt}` : ""}
                {node.episodeId ? (
                  <>
                    {" · "}
                    <Link href={`/episodes/${node.episodeId}`}>episode</Link>
                  </>
                ) : null}
              </div>
              {node.error ? <div className="inline-error">{node.error}</div> : null}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
