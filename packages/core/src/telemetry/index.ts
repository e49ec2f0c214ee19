export { registerClusterGauges, type ClusterGaugesOptions } from "./cluster-gauges";
export { metricBaseName, TELEMETRY_EVENTS, type TelemetryEventName } from "./event-names";
export { silentLogger, type Logger } from "./logger";
export {
  createPrometheusExporter,
  type EpisodeSeries,
  type PrometheusExporter,
  type PrometheusExporterOptions,
} from "./prometheus-exporter";
export { createRollupWriter, type RollupWriter, type RollupWriterOptions } from "./rollup-writer";
export {
  defaultTelemetry,
  Telemetry,
  type SubscribeOptions,
  type TelemetryEvent,
  type TelemetryHandler,
  type TelemetryMeasurements,
  type TelemetryMetadata,
} from "./telemetry";
export { writeTelemetryRollups, type TelemetryRollup } from "./write-telemetry-rollups";
