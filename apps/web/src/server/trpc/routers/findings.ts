import { listFindings, summariseActiveFindings } from "@cyclium/core/console";
import { createTrpcRouter, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { ZFindingListInput, ZFindingSummaryInput } from "./findings.schema";
import { resolveEnv } from "./shared.schema";

export const findingsRouter = createTrpcRouter({
  list: viewerProcedure.input(ZFindingListInput).query(async ({ ctx, input }) =>
    toWire(
      await listFindings({
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
  ),
  /** The Overview's panel: active findings by severity and the newest five. */
  activeSummary: viewerProcedure.input(ZFindingSummaryInput).query(async ({ ctx, input }) =>
    toWire(
      await summariseActiveFindings({
        db: ctx.db,
        env: resolveEnv(ctx.node.env, input.env),
        latest: 5,
      }),
    ),
  ),
});
