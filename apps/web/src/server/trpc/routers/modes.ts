import {
  clearConcurrencyOverride,
  clearModeOverride,
  clearNodeOverrides,
  setConcurrencyOverride,
  setModeOverride,
  listClusterModes,
} from "@cyclium/core/console";
import { audited } from "../../audit";
import { createTrpcRouter, operatorProcedure, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import {
  ZClearLimitInput,
  ZClearModeInput,
  ZClearNodeInput,
  ZSetLimitInput,
  ZSetModeInput,
} from "./modes.schema";

const targetOf = (input: { targetNode: string; actorId?: string | null | undefined }) =>
  input.actorId ? `${input.targetNode}/${input.actorId}` : input.targetNode;

export const modesRouter = createTrpcRouter({
  /** Every live node's modes as reported, and the stored mode and limit overrides (SPEC 6). */
  cluster: viewerProcedure.query(async ({ ctx }) => toWire(await listClusterModes({ db: ctx.db }))),

  set: operatorProcedure.input(ZSetModeInput).mutation(({ ctx, input }) =>
    audited(
      ctx,
      { action: "modes.set", target: targetOf(input), detail: { mode: input.mode } },
      (tx) =>
        setModeOverride({
          db: tx,
          targetNode: input.targetNode,
          actorId: input.actorId ?? null,
          mode: input.mode,
          setBy: ctx.principal.name,
        }),
    ),
  ),

  clear: operatorProcedure
    .input(ZClearModeInput)
    .mutation(({ ctx, input }) =>
      audited(ctx, { action: "modes.clear", target: targetOf(input) }, (tx) =>
        clearModeOverride({ db: tx, targetNode: input.targetNode, actorId: input.actorId ?? null }),
      ),
    ),

  /** An actor's maxConcurrentEpisodes on one node (or '*'), applied live (issue 14 item 6). */
  setLimit: operatorProcedure.input(ZSetLimitInput).mutation(({ ctx, input }) =>
    audited(
      ctx,
      {
        action: "modes.set_limit",
        target: `${input.targetNode}/${input.actorId}`,
        detail: { maxConcurrentEpisodes: input.maxConcurrentEpisodes },
      },
      async (tx) =>
        toWire(
          await setConcurrencyOverride({
            db: tx,
            targetNode: input.targetNode,
            actorId: input.actorId,
            maxConcurrentEpisodes: input.maxConcurrentEpisodes,
            setBy: ctx.principal.name,
          }),
        ),
    ),
  ),

  /** Back to the definition's limit (or the '*' row) for the actor on that node. */
  clearLimit: operatorProcedure.input(ZClearLimitInput).mutation(({ ctx, input }) =>
    audited(
      ctx,
      { action: "modes.clear_limit", target: `${input.targetNode}/${input.actorId}` },
      (tx) =>
        clearConcurrencyOverride({
          db: tx,
          targetNode: input.targetNode,
          actorId: input.actorId,
        }),
    ),
  ),

  /** Every mode and limit override of one node (or of '*'), in one audited command. */
  clearNode: operatorProcedure
    .input(ZClearNodeInput)
    .mutation(({ ctx, input }) =>
      audited(ctx, { action: "modes.clear_node", target: input.targetNode }, (tx) =>
        clearNodeOverrides({ db: tx, targetNode: input.targetNode }),
      ),
    ),
});
