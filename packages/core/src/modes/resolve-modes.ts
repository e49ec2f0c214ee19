import { ALL_NODES, type Mode, type ModeOverride } from "./mode";

export type OverrideEntry = Pick<ModeOverride, "targetNode" | "actorId" | "mode">;

export interface ResolvedModes {
  nodeMode: Mode;
  actorOverrides: ReadonlyMap<string, Mode>;
}

/**
 * Applies the override rows that concern one node. Precedence, weakest first:
 *
 *   node-wide:  configured base mode  <  '*' row  <  row for this node's identity
 *   per actor:  '*' row for the actor  <  row for this node's identity and the actor
 *
 * Each key (node-wide, or one actor) is first settled by target specificity; then an actor's
 * override beats the node-wide mode for that actor, except that a node-wide `disabled` stops
 * everything (see `effectiveModeFor`). Rows for other nodes are ignored.
 */
export function resolveModes(
  baseMode: Mode,
  nodeIdentity: string,
  overrides: Iterable<OverrideEntry>,
): ResolvedModes {
  let clusterNodeMode: Mode | undefined;
  let ownNodeMode: Mode | undefined;
  const clusterActors = new Map<string, Mode>();
  const ownActors = new Map<string, Mode>();
  for (const row of overrides) {
    const own = row.targetNode === nodeIdentity;
    if (!own && row.targetNode !== ALL_NODES) continue;
    if (row.actorId === null) {
      if (own) ownNodeMode = row.mode;
      else clusterNodeMode = row.mode;
    } else {
      (own ? ownActors : clusterActors).set(row.actorId, row.mode);
    }
  }
  const actorOverrides = new Map([...clusterActors, ...ownActors]);
  return { nodeMode: ownNodeMode ?? clusterNodeMode ?? baseMode, actorOverrides };
}

/** The mode one actor runs in. A node-wide `disabled` wins over any actor override. */
export function effectiveModeFor(resolved: ResolvedModes, actorId: string): Mode {
  if (resolved.nodeMode === "disabled") return "disabled";
  return resolved.actorOverrides.get(actorId) ?? resolved.nodeMode;
}
