import type { TelemetryEventName } from "./event-names";
import { silentLogger, type Logger } from "./logger";

/**
 * Numbers an event carries. `count` defaults to 1 and `duration_ms` feeds the duration
 * histograms and the rollup's sum/max; other keys (e.g. the recovery sweep's `found`,
 * `claimed`) become counters of their own.
 */
export interface TelemetryMeasurements {
  count?: number;
  duration_ms?: number;
  [measurement: string]: number | undefined;
}

/** Context of an event, e.g. `dedupe_key` and `owner_node` for claim events. */
export type TelemetryMetadata = Readonly<Record<string, string | number | boolean | null>>;

export interface TelemetryEvent {
  name: TelemetryEventName;
  measurements: TelemetryMeasurements;
  metadata: TelemetryMetadata;
  /** Wall-clock time of emission (ms since epoch); only used to bucket rollups. */
  at: number;
}

export type TelemetryHandler = (event: TelemetryEvent) => void;

export interface SubscribeOptions {
  /** Only these events; all events when omitted. */
  events?: readonly TelemetryEventName[];
}

/**
 * In-process event fan-out, the equivalent of Erlang's `:telemetry`: emitters never wait for or
 * fail because of a subscriber. Handlers run synchronously, so they must be cheap (the Prometheus
 * exporter and the rollup writer only bump in-memory numbers).
 */
export class Telemetry {
  private readonly handlers = new Set<{
    handler: TelemetryHandler;
    events: ReadonlySet<TelemetryEventName> | null;
  }>();

  constructor(private readonly logger: Logger = silentLogger) {}

  emit(
    name: TelemetryEventName,
    measurements: TelemetryMeasurements = {},
    metadata: TelemetryMetadata = {},
  ): void {
    if (this.handlers.size === 0) return;
    const event: TelemetryEvent = { name, measurements, metadata, at: Date.now() };
    for (const entry of this.handlers) {
      if (entry.events && !entry.events.has(name)) continue;
      try {
        entry.handler(event);
      } catch (error) {
        // A broken subscriber must not turn a successful claim into a failed one.
        this.logger.error({ err: error, event: name }, "telemetry handler threw");
      }
    }
  }

  /** Returns the function that unsubscribes. */
  subscribe(handler: TelemetryHandler, options: SubscribeOptions = {}): () => void {
    const entry = { handler, events: options.events ? new Set(options.events) : null };
    this.handlers.add(entry);
    return () => {
      this.handlers.delete(entry);
    };
  }
}

/** The process-wide instance used when a component is given none. */
export const defaultTelemetry = new Telemetry();
