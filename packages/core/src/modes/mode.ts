import { z } from "zod";

/**
 * What a node does with its actors (SPEC section 6):
 * - `full`: actors start, events flow, episodes execute here.
 * - `trigger_only`: actors start and events flow, but execution is deferred to a full node
 *   through cyclium_trigger_requests.
 * - `disabled`: nothing starts, nothing flows.
 */
export const MODES = ["full", "trigger_only", "disabled"] as const;

export const ZMode = z.enum(MODES);

export type Mode = z.infer<typeof ZMode>;

/** `target_node` value of an override that applies to every node of the cluster. */
export const ALL_NODES = "*";

/** NOTIFY channel carrying the `target_node` of every override change. */
export const MODES_CHANNEL = "cyclium_modes";

/** One row of cyclium_mode_overrides. `actorId === null` is the node-wide override. */
export interface ModeOverride {
  id: string;
  targetNode: string;
  actorId: string | null;
  mode: Mode;
  setBy: string | null;
  insertedAt: Date;
  updatedAt: Date;
}

/** What `ModeController.status()` returns, and what the node registry records. */
export interface ModeStatus {
  /** The node-wide mode in force. */
  nodeMode: Mode;
  /** Per-actor overrides in force on this node (after '*' / own-identity precedence). */
  overrides: Record<string, Mode>;
  nodeIdentity: string;
  /** The mode the node was configured with (CYCLIUM_MODE), before any override. */
  baseMode: Mode;
}
