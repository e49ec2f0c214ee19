import { getOverviewStats } from "@cyclium/core/console";
import { createTrpcRouter, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { ZOverviewStats, ZOverviewStatsInput } from "./overview.schema";

export const overviewRouter = createTrpcRouter({
  stats: viewerProcedure
    .input(ZOverviewStatsInput)
    .output(ZOverviewStats)
    .query(async ({ ctx, input }) =>
      toWire(
        await getOverviewStats({
          db: ctx.db,
          env: input?.env === undefined ? ctx.node.env : input.env,
        }),
      ),
    ),
});
