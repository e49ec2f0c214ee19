import { ALL_NODES, ZMode } from "@cyclium/core/modes";
import { z } from "zod";
import { ZName } from "./shared.schema";

/** A node identity, or `*` for every node of the cluster. */
const ZTargetNode = z.union([z.literal(ALL_NODES), ZName]);

export const ZSetModeInput = z.object({
  targetNode: ZTargetNode,
  /** Omitted or null: the node-wide mode. */
  actorId: ZName.nullable().optional(),
  mode: ZMode,
});
export type TSetModeInput = z.infer<typeof ZSetModeInput>;

export const ZClearModeInput = z.object({
  targetNode: ZTargetNode,
  actorId: ZName.nullable().optional(),
});
