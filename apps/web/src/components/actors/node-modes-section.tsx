"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { EmptyState } from "@/components/ui/empty-state";
import { StatusPill } from "@/components/ui/status-pill";
import { mutationErrorMessage } from "@/lib/error-message";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { ClearNodeOverridesButton, LimitInput } from "./node-override-controls";

/** A desktop fits the grid's column per actor up to this many actors; past it, cards. */
const CARDS_PAST_ACTORS = 3;

type TCluster = TRouterOutputs["modes"]["cluster"];
type TNode = TCluster["nodes"][number];
const MODES = ["full", "trigger_only", "disabled"] as const;
const INHERIT = "";
const ALL = "*";

function ModeSelect({
  target,
  actorId,
  stored,
  reported,
  canOperate,
  onChange,
  busy,
}: {
  target: string;
  actorId: string | null;
  stored: string | undefined;
  reported: string | undefined;
  canOperate: boolean;
  onChange: (mode: string) => void;
  busy: boolean;
}) {
  const label = actorId === null ? `${target} node-wide mode` : `${target} mode for ${actorId}`;
  const lagging = stored !== undefined && reported !== undefined && stored !== reported;
  if (!canOperate) {
    return stored ? (
      <StatusPill status={stored} />
    ) : (
      <span className="note">{reported ?? "inherit"}</span>
    );
  }
  return (
    <span className="mode-cell">
      <select
        className="mode-select"
        aria-label={label}
        data-testid={`mode-${target}-${actorId ?? "node"}`}
        data-overridden={stored !== undefined}
        value={stored ?? INHERIT}
        disabled={busy}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value={INHERIT}>
          {actorId !== null ? "inherit" : reported === undefined ? "not set" : "as configured"}
        </option>
        {MODES.map((mode) => (
          <option key={mode} value={mode}>
            {mode}
          </option>
        ))}
      </select>
      {lagging ? (
        <span
          className="note"
          title="The node applies it within a second and reports it with its next heartbeat"
        >
          applying…
        </span>
      ) : null}
    </span>
  );
}

/**
 * Every live node's node-wide mode and per-actor overrides (SPEC section 6), switchable: a change
 * is a row in cyclium_mode_overrides that the target node applies within a second. `*` targets
 * every node; a node's own row beats it. Each actor cell also sets the actor's
 * maxConcurrentEpisodes there (cyclium_concurrency_overrides, applied the same way), and a node's
 * overrides can be cleared at once.
 */
export function NodeModesSection({
  cluster,
  actorIds,
  definedLimits = {},
  canOperate,
}: {
  cluster: TCluster;
  actorIds: string[];
  /** Each actor's maxConcurrentEpisodes as defined (the placeholder of its limit field). */
  definedLimits?: Readonly<Record<string, number>>;
  canOperate: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.modes.pathKey() });
  const set = useMutation(trpc.modes.set.mutationOptions({ onSuccess: refresh }));
  const clear = useMutation(trpc.modes.clear.mutationOptions({ onSuccess: refresh }));
  const stored = (target: string, actorId: string | null) =>
    cluster.overrideRows.find((row) => row.targetNode === target && row.actorId === actorId)?.mode;
  const change = (target: string, actorId: string | null, mode: string) => {
    if (mode === INHERIT) clear.mutate({ targetNode: target, actorId });
    else set.mutate({ targetNode: target, actorId, mode: MODES.find((m) => m === mode) ?? "full" });
  };
  const limitRow = (target: string, actorId: string) =>
    cluster.limitRows.find((row) => row.targetNode === target && row.actorId === actorId);
  const overridesOf = (target: string) =>
    cluster.overrideRows.filter((row) => row.targetNode === target).length +
    cluster.limitRows.filter((row) => row.targetNode === target).length;
  const busy = set.isPending || clear.isPending;
  const failure = set.error ?? clear.error;
  const rows: (TNode | null)[] = [null, ...cluster.nodes];
  if (cluster.nodes.length === 0) {
    return (
      <EmptyState icon="unplugged" title="No live node" testId="modes-empty">
        No node has sent a heartbeat in the last 30 seconds. Overrides set for <code>*</code> apply
        to every node as soon as it starts.
      </EmptyState>
    );
  }
  return (
    <>
      {failure ? (
        <div className="callout callout-error">{mutationErrorMessage(failure)}</div>
      ) : null}
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Node modes">
        {/* On a phone, and on a desktop past CARDS_PAST_ACTORS actors, each node is a card with one
            line per actor (responsive.css): the grid grows a column per actor and would otherwise
            scroll inside this box. */}
        <table
          className="table table-cards"
          data-dense="true"
          data-layout={actorIds.length > CARDS_PAST_ACTORS ? "cards" : undefined}
          data-testid="node-modes-table"
        >
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Node-wide mode</th>
              {actorIds.map((actorId) => (
                <th key={actorId} scope="col" className="mono">
                  {actorId}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((node) => {
              const target = node?.identity ?? ALL;
              return (
                <tr key={target} data-testid={`modes-row-${target}`}>
                  <td className="cell-lead">
                    <div className="cell-primary mono">{node ? node.identity : "* every node"}</div>
                    <div className="cell-secondary">
                      {node
                        ? `${node.kind} · env ${node.env ?? "default"} · in force: ${node.mode}`
                        : "cluster-wide defaults; a node's own setting wins"}
                    </div>
                    {canOperate ? (
                      <ClearNodeOverridesButton target={target} count={overridesOf(target)} />
                    ) : null}
                  </td>
                  <td data-label="Node-wide mode">
                    <ModeSelect
                      target={target}
                      actorId={null}
                      stored={stored(target, null)}
                      reported={node?.mode}
                      canOperate={canOperate}
                      busy={busy}
                      onChange={(mode) => change(target, null, mode)}
                    />
                  </td>
                  {actorIds.map((actorId) => (
                    <td key={actorId} data-label={actorId}>
                      <ModeSelect
                        target={target}
                        actorId={actorId}
                        stored={stored(target, actorId)}
                        reported={node ? (node.overrides[actorId] ?? node.mode) : undefined}
                        canOperate={canOperate}
                        busy={busy}
                        onChange={(mode) => change(target, actorId, mode)}
                      />
                      <LimitInput
                        target={target}
                        actorId={actorId}
                        stored={limitRow(target, actorId)}
                        defined={definedLimits[actorId]}
                        canOperate={canOperate}
                      />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
