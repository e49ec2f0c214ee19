import { TELEMETRY_EVENTS, ACTOR_CHART_RANGE_NAMES } from "@cyclium/core/console";
import { z } from "zod";
import { ZEnvInput, ZName } from "./shared.schema";

export const ZTelemetrySeriesInput = z.object({
  events: z.array(z.enum(TELEMETRY_EVENTS)).min(1).max(TELEMETRY_EVENTS.length),
  /** Window in minutes, newest minute last; at most a day. */
  minutes: z.number().int().min(5).max(1440).default(60),
  node: ZName.nullable().optional(),
});

/** One actor's charts: a range the console offers (each with its bucket), in one env. */
export const ZActorChartsInput = z.object({
  actorId: ZName,
  range: z.enum(ACTOR_CHART_RANGE_NAMES).default("1h"),
  env: ZEnvInput,
});
export type TActorChartsInput = z.infer<typeof ZActorChartsInput>;
