import { readTelemetrySeries } from "../../queries/telemetry/telemetry-series";
import { createTrpcRouter, viewerProcedure } from "../init";
import { ZTelemetrySeriesInput } from "./telemetry.schema";

export const telemetryRouter = createTrpcRouter({
  series: viewerProcedure.input(ZTelemetrySeriesInput).query(({ ctx, input }) =>
    readTelemetrySeries({
      db: ctx.db,
      events: input.events,
      minutes: input.minutes,
      node: input.node,
    }),
  ),
});
