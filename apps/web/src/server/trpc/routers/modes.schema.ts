import { ALL_NODES, ZMaxConcurrentEpisodes, ZMode } from "@cyclium/core/console";
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

/** An actor's maxConcurrentEpisodes on a node (or `*`), 1..10,000 like the definition's. */
export const ZSetLimitInput = z.object({
  targetNode: ZTargetNode,
  actorId: ZName,
  maxConcurrentEpisodes: ZMaxConcurrentEpisodes,
});
export type TSetLimitInput = z.infer<typeof ZSetLimitInput>;

export const ZClearLimitInput = z.object({ targetNode: ZTargetNode, actorId: ZName });

/** Every mode and limit override addressed to exactly this target. */
export const ZClearNodeInput = z.object({ targetNode: ZTargetNode });
