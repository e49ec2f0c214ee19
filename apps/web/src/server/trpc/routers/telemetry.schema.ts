import { TELEMETRY_EVENTS } from "@cyclium/core/telemetry";
import { z } from "zod";
import { ZName } from "./shared.schema";

export const ZTelemetrySeriesInput = z.object({
  events: z.array(z.enum(TELEMETRY_EVENTS)).min(1).max(TELEMETRY_EVENTS.length),
  /** Window in minutes, newest minute last; at most a day. */
  minutes: z.number().int().min(5).max(1440).default(60),
  node: ZName.nullable().optional(),
});
