// The console's read model of telemetry: per-minute series of events from the rollups.
export {
  readTelemetrySeries,
  type TelemetryPoint,
  type TelemetrySeries,
  type TelemetrySeriesResult,
} from "./telemetry-series";
