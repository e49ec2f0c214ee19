import { readActorCharts, readTelemetrySeries } from "@cyclium/core/console";
import { createTrpcRouter, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { resolveEnv } from "./shared.schema";
import { ZActorChartsInput, ZTelemetrySeriesInput } from "./telemetry.schema";

export const telemetryRouter = createTrpcRouter({
  series: viewerProcedure.input(ZTelemetrySeriesInput).query(async ({ ctx, input }) =>
    toWire(
      await readTelemetrySeries({
        db: ctx.db,
        events: input.events,
        minutes: input.minutes,
        node: input.node,
      }),
    ),
  ),

  /** Throughput by outcome, queue wait and run time p50/p95 of one actor, with the alerts. */
  actorCharts: viewerProcedure.input(ZActorChartsInput).query(async ({ ctx, input }) =>
    toWire(
      await readActorCharts({
        db: ctx.db,
        env: resolveEnv(ctx.node.env, input.env),
        actorId: input.actorId,
        range: input.range,
      }),
    ),
  ),
});
