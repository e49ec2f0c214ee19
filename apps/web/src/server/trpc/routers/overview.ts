import { getOverviewStats } from "../../queries/get-overview-stats";
import { createTrpcRouter, viewerProcedure } from "../init";
import { ZOverviewStats, ZOverviewStatsInput } from "./overview.schema";

export const overviewRouter = createTrpcRouter({
  stats: viewerProcedure
    .input(ZOverviewStatsInput)
    .output(ZOverviewStats)
    .query(({ ctx, input }) =>
      getOverviewStats({
        db: ctx.db,
        env: input?.env === undefined ? ctx.node.env : input.env,
      }),
    ),
});
