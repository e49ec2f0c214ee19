import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { metricBaseName, TELEMETRY_EVENTS, type TelemetryEventName } from "./event-names";
import type { Telemetry, TelemetryEvent } from "./telemetry";

export interface PrometheusExporterOptions {
  telemetry: Telemetry;
  /** Registry to fill; a new one by default, so tests and multiple nodes in one process do not collide. */
  registry?: Registry;
  /** Added to every series as labels, e.g. `{ node: "worker-1" }`. */
  defaultLabels?: Record<string, string>;
}

export interface PrometheusExporter {
  registry: Registry;
  /** Text exposition for `GET /metrics`. */
  metrics(): Promise<string>;
  contentType: string;
  stop(): void;
}

// Claims and episodes take milliseconds to minutes: 1 ms .. ~16 min in powers of 4.
const DURATION_BUCKETS_SECONDS = [
  0.001, 0.004, 0.016, 0.064, 0.256, 1.024, 4.096, 16.384, 65.536, 262.144, 1048.576,
];

/** `cyclium_circuit_breaker_state`: what each transition event says the breaker is now. */
const BREAKER_STATES: Partial<Record<TelemetryEventName, number>> = {
  "cyclium.circuit_breaker.closed": 0,
  "cyclium.circuit_breaker.half_open": 1,
  "cyclium.circuit_breaker.opened": 2,
};

/**
 * Feeds a prom-client registry from in-process telemetry: one `<event>_total` counter per event
 * (declared up front, so alerts on e.g. `cyclium_work_claims_steal_total` see a 0 rather than no
 * series), a `<event>_duration_seconds` histogram for events that carry `duration_ms`, and a
 * `<event>_<measurement>_total` counter for any other measurement. No per-key labels: dedupe
 * keys are unbounded and would explode the series count.
 */
export function createPrometheusExporter(options: PrometheusExporterOptions): PrometheusExporter {
  const registry = options.registry ?? new Registry();
  if (options.defaultLabels) registry.setDefaultLabels(options.defaultLabels);

  const counters = new Map<string, Counter>();
  const histograms = new Map<TelemetryEventName, Histogram>();

  const counter = (name: string, help: string): Counter => {
    let metric = counters.get(name);
    if (!metric) {
      metric = new Counter({ name, help, registers: [registry] });
      counters.set(name, metric);
    }
    return metric;
  };

  for (const event of TELEMETRY_EVENTS) {
    counter(`${metricBaseName(event)}_total`, `Count of ${event} events.`);
  }
  // Labelled by expectation (a bounded set, unlike dedupe keys), so an alert names the breaker.
  const breakerState = new Gauge({
    name: "cyclium_circuit_breaker_state",
    help: "Trigger circuit breaker (event, schedule, poll) as this node last saw it: 0 closed, 1 half-open, 2 open.",
    labelNames: ["actor_id", "expectation_id"],
    registers: [registry],
  });

  const onEvent = (event: TelemetryEvent): void => {
    const base = metricBaseName(event.name);
    counter(`${base}_total`, `Count of ${event.name} events.`).inc(event.measurements.count ?? 1);
    const state = BREAKER_STATES[event.name];
    if (state !== undefined) {
      const { actor_id, expectation_id } = event.metadata;
      breakerState.set(
        { actor_id: String(actor_id ?? ""), expectation_id: String(expectation_id ?? "") },
        state,
      );
    }
    for (const [key, value] of Object.entries(event.measurements)) {
      if (value === undefined || !Number.isFinite(value) || value < 0) continue;
      if (key === "count") continue;
      if (key === "duration_ms") {
        let histogram = histograms.get(event.name);
        if (!histogram) {
          histogram = new Histogram({
            name: `${base}_duration_seconds`,
            help: `Duration of ${event.name}.`,
            buckets: DURATION_BUCKETS_SECONDS,
            registers: [registry],
          });
          histograms.set(event.name, histogram);
        }
        histogram.observe(value / 1000);
        continue;
      }
      const safeKey = key.replace(/[^a-zA-Z0-9_]/g, "_");
      counter(`${base}_${safeKey}_total`, `Sum of ${key} over ${event.name} events.`).inc(value);
    }
  };

  const unsubscribe = options.telemetry.subscribe(onEvent);
  return {
    registry,
    metrics: () => registry.metrics(),
    contentType: registry.contentType,
    stop: unsubscribe,
  };
}
