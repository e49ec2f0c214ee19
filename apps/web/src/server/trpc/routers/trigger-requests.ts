import { listTriggerRequests } from "../../queries/trigger-requests/list-trigger-requests";
import { createTrpcRouter, viewerProcedure } from "../init";
import { resolveEnv } from "./shared.schema";
import { ZTriggerRequestListInput } from "./trigger-requests.schema";

export const triggerRequestsRouter = createTrpcRouter({
  list: viewerProcedure.input(ZTriggerRequestListInput).query(({ ctx, input }) =>
    listTriggerRequests({
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
});
