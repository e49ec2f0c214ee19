// Telemetry's reads: the console's per-minute series from the rollups, one actor's throughput and
// latency charts with the alert conditions, and the cluster state the scrape-time gauges report
// (pending requests, node sightings).
export {
  readTelemetrySeries,
  type TelemetryPoint,
  type TelemetrySeries,
  type TelemetrySeriesResult,
} from "./telemetry-series";
export { readActorCharts, type ActorChartPoint, type ActorCharts } from "./read-actor-charts";
export { ALERT_EVENTS, readAlertSeries } from "./alert-series";
export {
  ACTOR_CHART_RANGE_NAMES,
  ACTOR_CHART_RANGES,
  type ActorChartRange,
  type ChartBucket,
} from "./chart-range";
export {
  readPendingRequestsByEnv,
  readRunningNodeSightings,
  type PendingRequestsByEnv,
  type RunningNodeSighting,
} from "./cluster-state";
