import { listEpisodeLeases, listWorkClaims, summariseWorkClaims } from "@cyclium/core/console";
import { createTrpcRouter, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { ZClaimListInput, ZClaimSummaryInput, ZEpisodeLeaseListInput } from "./claims.schema";
import { resolveEnv } from "./shared.schema";

export const claimsRouter = createTrpcRouter({
  list: viewerProcedure.input(ZClaimListInput).query(async ({ ctx, input }) =>
    toWire(
      await listWorkClaims({
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
  ),
  /** Episodes holding their own lease (SPEC section 4), listed beside the claim rows. */
  episodeLeases: viewerProcedure
    .input(ZEpisodeLeaseListInput)
    .query(async ({ ctx, input }) =>
      toWire(await listEpisodeLeases({ db: ctx.db, env: resolveEnv(ctx.node.env, input.env) })),
    ),
  summary: viewerProcedure
    .input(ZClaimSummaryInput)
    .query(({ ctx, input }) =>
      summariseWorkClaims({ db: ctx.db, env: resolveEnv(ctx.node.env, input.env) }),
    ),
});
