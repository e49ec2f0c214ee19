import { listWorkClaims, summariseWorkClaims } from "../../queries/claims/list-work-claims";
import { createTrpcRouter, viewerProcedure } from "../init";
import { ZClaimListInput, ZClaimSummaryInput } from "./claims.schema";
import { resolveEnv } from "./shared.schema";

export const claimsRouter = createTrpcRouter({
  list: viewerProcedure.input(ZClaimListInput).query(({ ctx, input }) =>
    listWorkClaims({
      db: ctx.db,
      filters: {
        env: resolveEnv(ctx.node.env, input.env),
        state: input.state,
        ownerNode: input.ownerNode,
        lapsedOnly: input.lapsedOnly,
      },
      cursor: input.cursor,
      direction: input.direction,
      limit: input.limit,
    }),
  ),
  summary: viewerProcedure
    .input(ZClaimSummaryInput)
    .query(({ ctx, input }) =>
      summariseWorkClaims({ db: ctx.db, env: resolveEnv(ctx.node.env, input.env) }),
    ),
});
