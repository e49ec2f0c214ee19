import { getOverviewStats } from "../../queries/get-overview-stats";
import { createTrpcRouter, publicProcedure } from "../init";
import { ZOverviewStats, ZOverviewStatsInput } from "./overview.schema";

export const overviewRouter = createTrpcRouter({
  stats: publicProcedure
    .input(ZOverviewStatsInput)
    .output(ZOverviewStats)
    .query(({ ctx, input }) =>
      getOverviewStats({
        db: ctx.db,
        env: input?.env === undefined ? ctx.node.env : input.env,
      }),
    ),
});
