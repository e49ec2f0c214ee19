import type { Queryable } from "../db/index";
import { silentLogger, type Logger } from "./logger";
import type { Telemetry, TelemetryEvent } from "./telemetry";
import { writeTelemetryRollups, type TelemetryRollup } from "./write-telemetry-rollups";

export interface RollupWriterOptions {
  telemetry: Telemetry;
  db: Queryable;
  /** Node identity written to the `node` column. */
  node: string;
  /**
   * How often buffered minutes are written. 15 s keeps the console's charts close to live
   * while a busy node (thousands of claim events a minute) still writes one statement per flush.
   */
  flushIntervalMs?: number;
  /**
   * Minutes kept in memory while the database is unreachable; older ones are dropped so an
   * outage cannot grow the buffer without bound (at ~20 events that is 1,200 entries).
   */
  maxBufferedMinutes?: number;
  logger?: Logger;
}

export interface RollupWriter {
  /** Writes what is buffered now; concurrent calls share one write. */
  flush(): Promise<void>;
  /** Stops listening and the timer, then flushes what is left. */
  stop(): Promise<void>;
}

const MINUTE_MS = 60_000;

/**
 * Aggregates telemetry per minute in memory and writes it to `cyclium_telemetry` in batches.
 * Buckets come from the node's clock: unlike leases, a chart is not harmed by a skewed clock.
 */
export function createRollupWriter(options: RollupWriterOptions): RollupWriter {
  const logger = options.logger ?? silentLogger;
  const maxMinutes = options.maxBufferedMinutes ?? 60;
  let buffer = new Map<string, TelemetryRollup>();
  let inFlight: Promise<void> | null = null;
  let stopped = false;

  const add = (into: Map<string, TelemetryRollup>, rollup: TelemetryRollup): void => {
    const key = `${rollup.bucket.getTime()}\u0000${rollup.event}`;
    const existing = into.get(key);
    if (!existing) {
      into.set(key, { ...rollup });
      return;
    }
    existing.count += rollup.count;
    existing.sumMs += rollup.sumMs;
    existing.maxMs = Math.max(existing.maxMs, rollup.maxMs);
  };

  const onEvent = (event: TelemetryEvent): void => {
    const duration = event.measurements.duration_ms ?? 0;
    add(buffer, {
      bucket: new Date(Math.floor(event.at / MINUTE_MS) * MINUTE_MS),
      event: event.name,
      node: options.node,
      count: event.measurements.count ?? 1,
      sumMs: duration,
      maxMs: duration,
    });
  };

  const writeOnce = async (): Promise<void> => {
    if (buffer.size === 0) return;
    const batch = buffer;
    buffer = new Map();
    try {
      await writeTelemetryRollups({ rollups: [...batch.values()] }, options.db);
    } catch (error) {
      logger.warn({ err: error, rows: batch.size }, "telemetry rollup write failed; will retry");
      // Put the minutes back (merged with what arrived meanwhile), keeping only the newest ones.
      for (const rollup of batch.values()) add(buffer, rollup);
      const oldestKept = Date.now() - maxMinutes * MINUTE_MS;
      for (const [key, rollup] of buffer) {
        if (rollup.bucket.getTime() < oldestKept) buffer.delete(key);
      }
    }
  };

  const flush = (): Promise<void> => {
    inFlight ??= writeOnce().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  const unsubscribe = options.telemetry.subscribe(onEvent);
  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 15_000);
  // Telemetry must never keep a process alive that would otherwise exit.
  timer.unref();

  return {
    flush,
    async stop() {
      if (stopped) return;
      stopped = true;
      unsubscribe();
      clearInterval(timer);
      await inFlight;
      await flush();
    },
  };
}
