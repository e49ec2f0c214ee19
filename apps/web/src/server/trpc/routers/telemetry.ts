import { readTelemetrySeries } from "@cyclium/core/telemetry/queries";
import { createTrpcRouter, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { ZTelemetrySeriesInput } from "./telemetry.schema";

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
});
