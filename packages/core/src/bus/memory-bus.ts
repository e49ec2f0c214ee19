import { createBusEvent } from "./create-bus-event";
import { silentLogger, type Logger } from "../telemetry/index";
import { SubscriberRegistry } from "./subscriber-registry";
import type { Bus, BusEvent, BusHandler, PublishOptions, Unsubscribe } from "./types";

export interface MemoryBusOptions {
  logger?: Logger;
  /** Stamped as `source` on published events, as the PostgreSQL bus does. */
  nodeIdentity?: string;
}

/**
 * In-process bus for unit tests and single-process tools. Payloads go through a JSON round trip
 * so handlers see what they would see from the PostgreSQL bus (Dates become strings, undefined
 * properties vanish), which keeps tests honest about serialisation.
 */
export class MemoryBus implements Bus {
  readonly #registry: SubscriberRegistry;
  readonly #nodeIdentity: string | undefined;
  readonly #inFlight = new Set<Promise<void>>();
  #closed = false;

  constructor(options: MemoryBusOptions = {}) {
    this.#registry = new SubscriberRegistry(options.logger ?? silentLogger);
    this.#nodeIdentity = options.nodeIdentity;
  }

  /**
   * Resolves once every handler has been invoked; `tx` is ignored (there is no database).
   * `async` without an await so that every failure, an invalid topic included, is a rejection.
   */
  // eslint-disable-next-line @typescript-eslint/require-await
  async publish<P>(topic: string, payload: P, _opts?: PublishOptions): Promise<BusEvent<P>> {
    if (this.#closed) throw new Error("bus is closed");
    const event = createBusEvent(topic, payload, this.#nodeIdentity);
    const delivered: BusEvent = { ...event, payload: roundTrip(payload) };
    const settled = this.#registry.dispatch(delivered);
    this.#inFlight.add(settled);
    void settled.finally(() => this.#inFlight.delete(settled));
    return event;
  }

  subscribe(topic: string, handler: BusHandler): Unsubscribe {
    return this.#registry.subscribe(topic, handler);
  }

  /** Waits until every async handler started so far has settled. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.drain();
    this.#registry.clear();
  }
}

function roundTrip(value: unknown): unknown {
  const json = JSON.stringify(value);
  // JSON.stringify(undefined) is undefined; PostgreSQL's bus would carry null.
  return json === undefined ? null : (JSON.parse(json) as unknown);
}
