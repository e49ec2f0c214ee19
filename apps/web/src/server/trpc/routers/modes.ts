import { clearModeOverride, setModeOverride } from "@cyclium/core/modes";
import { listClusterModes } from "@cyclium/core/nodes/queries";
import { audited } from "../../audit";
import { createTrpcRouter, operatorProcedure, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { ZClearModeInput, ZSetModeInput } from "./modes.schema";

const targetOf = (input: { targetNode: string; actorId?: string | null | undefined }) =>
  input.actorId ? `${input.targetNode}/${input.actorId}` : input.targetNode;

export const modesRouter = createTrpcRouter({
  /** Every live node's modes as reported, and the stored overrides (SPEC section 6). */
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
});
