// Telemetry's reads: the console's per-minute series from the rollups, and the cluster state
// the scrape-time gauges report (pending requests, node sightings).
export {
  readTelemetrySeries,
  type TelemetryPoint,
  type TelemetrySeries,
  type TelemetrySeriesResult,
} from "./telemetry-series";
export {
  readPendingRequestsByEnv,
  readRunningNodeSightings,
  type PendingRequestsByEnv,
  type RunningNodeSighting,
} from "./cluster-state";
