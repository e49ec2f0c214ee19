import { listTriggerRequests } from "@cyclium/core/console";
import { createTrpcRouter, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { resolveEnv } from "./shared.schema";
import { ZTriggerRequestListInput } from "./trigger-requests.schema";

export const triggerRequestsRouter = createTrpcRouter({
  list: viewerProcedure.input(ZTriggerRequestListInput).query(async ({ ctx, input }) =>
    toWire(
      await listTriggerRequests({
        db: ctx.db,
        filters: {
          env: resolveEnv(ctx.node.env, input.env),
          status: input.status,
          actorId: input.actorId,
        },
        cursor: input.cursor,
        direction: input.direction,
        limit: input.limit,
      }),
    ),
  ),
});
