import { listFindings, summariseActiveFindings } from "../../queries/findings/list-findings";
import { createTrpcRouter, viewerProcedure } from "../init";
import { ZFindingListInput, ZFindingSummaryInput } from "./findings.schema";
import { resolveEnv } from "./shared.schema";

export const findingsRouter = createTrpcRouter({
  list: viewerProcedure.input(ZFindingListInput).query(({ ctx, input }) =>
    listFindings({
      db: ctx.db,
      filters: {
        env: resolveEnv(ctx.node.env, input.env),
        status: input.status,
        class: input.class,
        severity: input.severity,
      },
      cursor: input.cursor,
      direction: input.direction,
      limit: input.limit,
    }),
  ),
  /** The Overview's panel: active findings by severity and the newest five. */
  activeSummary: viewerProcedure
    .input(ZFindingSummaryInput)
    .query(({ ctx, input }) =>
      summariseActiveFindings({ db: ctx.db, env: resolveEnv(ctx.node.env, input.env), latest: 5 }),
    ),
});
