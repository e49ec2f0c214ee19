import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { metricBaseName, TELEMETRY_EVENTS, type TelemetryEventName } from "./event-names";
import type { Telemetry, TelemetryEvent } from "./telemetry";

export interface PrometheusExporterOptions {
  telemetry: Telemetry;
  /** Registry to fill; a new one by default, so tests and multiple nodes in one process do not collide. */
  registry?: Registry;
  /** Added to every series as labels, e.g. `{ node: "worker-1" }`. */
  defaultLabels?: Record<string, string>;
  /**
   * The deployment's expectations: their episode series are exported at 0 from the start, so an
   * alert's `increase()` sees an actor's first failure instead of a series that appears at 1.
   */
  expectations?: readonly EpisodeSeries[] | undefined;
}

/** One expectation's label values on the episode metrics. */
export interface EpisodeSeries {
  actor: string;
  expectation: string;
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

/**
 * Events counted per `actor` and `expectation` (issue 31: a per-actor alert needs them). Both are
 * declared in code or by an admin, so the series stay bounded; dedupe keys, episode ids and error
 * classes (a strategy's own strings) are never labels.
 */
const EPISODE_EVENTS: ReadonlySet<TelemetryEventName> = new Set([
  "cyclium.episode.started",
  "cyclium.episode.completed",
  "cyclium.episode.failed",
]);
const EPISODE_LABELS = ["actor", "expectation"] as const;

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
 * keys are unbounded and would explode the series count. Episode events carry `actor` and
 * `expectation` labels (see EPISODE_EVENTS).
 */
export function createPrometheusExporter(options: PrometheusExporterOptions): PrometheusExporter {
  const registry = options.registry ?? new Registry();
  if (options.defaultLabels) registry.setDefaultLabels(options.defaultLabels);

  const counters = new Map<string, Counter>();
  const histograms = new Map<TelemetryEventName, Histogram>();

  const counter = (name: string, help: string, labelled = false): Counter => {
    let metric = counters.get(name);
    if (!metric) {
      metric = new Counter({
        name,
        help,
        registers: [registry],
        ...(labelled ? { labelNames: EPISODE_LABELS } : {}),
      });
      counters.set(name, metric);
    }
    return metric;
  };

  for (const event of TELEMETRY_EVENTS) {
    const total = counter(
      `${metricBaseName(event)}_total`,
      `Count of ${event} events.`,
      EPISODE_EVENTS.has(event),
    );
    if (!EPISODE_EVENTS.has(event)) continue;
    for (const { actor, expectation } of options.expectations ?? []) {
      total.labels({ actor, expectation }).inc(0);
    }
  }
  // Labelled by expectation (a bounded set, unlike dedupe keys), so an alert names the breaker.
  const breakerState = new Gauge({
    name: "cyclium_circuit_breaker_state",
    help: "Expectation trigger circuit breaker (event, schedule, poll) as this node last saw it: 0 closed, 1 half-open, 2 open.",
    labelNames: ["actor_id", "expectation_id"],
    registers: [registry],
  });

  // A poll trigger's breaker (issue 31), by trigger name: triggers are declared, so bounded.
  const triggerBreakerState = new Gauge({
    name: "cyclium_trigger_circuit_breaker_state",
    help: "Poll trigger circuit breaker as this node last saw it: 0 closed, 1 half-open, 2 open.",
    labelNames: ["trigger"],
    registers: [registry],
  });

  const onEvent = (event: TelemetryEvent): void => {
    const base = metricBaseName(event.name);
    const labels = EPISODE_EVENTS.has(event.name) ? episodeLabels(event) : undefined;
    const total = counter(`${base}_total`, `Count of ${event.name} events.`);
    const count = event.measurements.count ?? 1;
    if (labels === undefined) total.inc(count);
    else total.inc(labels, count);
    const state = BREAKER_STATES[event.name];
    if (state !== undefined && typeof event.metadata.trigger === "string") {
      triggerBreakerState.set({ trigger: event.metadata.trigger }, state);
    } else if (state !== undefined) {
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
            ...(labels === undefined ? {} : { labelNames: EPISODE_LABELS }),
          });
          histograms.set(event.name, histogram);
        }
        if (labels === undefined) histogram.observe(value / 1000);
        else histogram.observe(labels, value / 1000);
        continue;
      }
      const safeKey = key.replace(/[^a-zA-Z0-9_]/g, "_");
      const sum = counter(
        `${base}_${safeKey}_total`,
        `Sum of ${key} over ${event.name} events.`,
        labels !== undefined,
      );
      if (labels === undefined) sum.inc(value);
      else sum.inc(labels, value);
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

function episodeLabels(event: TelemetryEvent): Record<(typeof EPISODE_LABELS)[number], string> {
  const { actor_id, expectation_id } = event.metadata;
  return { actor: String(actor_id ?? ""), expectation: String(expectation_id ?? "") };
}
