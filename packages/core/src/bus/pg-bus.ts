import type pg from "pg";
import {
  BUS_CHANNEL,
  MAX_INLINE_EVENT_BYTES,
  decodeWireMessage,
  parseEvent,
  serializeEvent,
  type WireMessage,
} from "./bus-wire-format";
import { createBusEvent } from "./create-bus-event";
import { deleteOldBusEvents } from "./delete-old-bus-events";
import { loadBusEvent } from "./load-bus-event";
import { silentLogger, type Logger } from "../telemetry/index";
import { publishBusEvent } from "./publish-bus-event";
import { PgListener } from "./pg-listener";
import { notifyMany } from "./notify";
import { MicroBatcher } from "../batching/micro-batcher";
import type { Queryable } from "../db/index";
import { SubscriberRegistry } from "./subscriber-registry";
import type { Bus, BusEvent, BusHandler, PublishOptions, Unsubscribe } from "./types";

export interface PgBusCleanupOptions {
  /** How often this node deletes old cyclium_bus_events rows. Default 10 minutes. */
  intervalMs?: number;
  /** Rows younger than this are kept. Default 1 hour: receivers load a row within milliseconds. */
  retentionMs?: number;
}

export interface PgBusOptions {
  /** Pool for publishing, loading stored events and cleanup. */
  db: Queryable;
  /**
   * The process's shared listener (also used for trigger request and mode channels). The bus
   * LISTENs on it but does not start or close it. Give `connection` instead to have the bus
   * own a listener of its own.
   */
  listener?: PgListener;
  connection?: string | pg.ClientConfig;
  logger?: Logger;
  /** Stamped as `source` on published events. */
  nodeIdentity?: string;
  /** Events whose JSON is larger go through cyclium_bus_events. Lowered only by tests. */
  maxInlineBytes?: number;
  /** `false` disables the periodic cleanup (another process runs it). */
  cleanup?: PgBusCleanupOptions | false;
}

/** A stored event that cannot be loaded is retried this many times before it is dropped. */
const LOAD_ATTEMPTS = 3;

/**
 * Cluster-wide bus on PostgreSQL LISTEN/NOTIFY. Every node, the publisher included, receives an
 * event through its own listening connection, so local and remote subscribers see the same event
 * exactly once and in the order PostgreSQL delivers it. Delivery is at most once: a node whose
 * listener is reconnecting misses what was published meanwhile, which is why recovery replays
 * workflow events from the database rather than trusting the bus.
 */
export class PgBus implements Bus {
  readonly #db: Queryable;
  readonly #listener: PgListener;
  readonly #ownsListener: boolean;
  readonly #logger: Logger;
  readonly #nodeIdentity: string | undefined;
  readonly #maxInlineBytes: number;
  readonly #registry: SubscriberRegistry;
  readonly #cleanup: Required<PgBusCleanupOptions> | false;
  /**
   * The inline NOTIFYs of publishes made outside a transaction: those of one event-loop turn (and
   * those made while a statement is in flight) go out as one statement, so a worker announcing a
   * batch of queued or finished episodes costs one commit and wakes each listener once, not once
   * per event. Each publish still resolves only once its NOTIFY is sent.
   */
  readonly #inline: MicroBatcher<string, true>;
  #cleanupTimer: NodeJS.Timeout | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  /** Serialises decode-and-load so a slow stored event cannot be overtaken by a later one. */
  #receiving: Promise<void> = Promise.resolve();
  /** Deliveries queued on #receiving (stored events loading, and inline ones behind them). */
  #queued = 0;
  #closed = false;

  private constructor(options: PgBusOptions) {
    if (options.listener === undefined && options.connection === undefined) {
      throw new TypeError("PgBus needs a listener or connection settings for one");
    }
    this.#db = options.db;
    this.#logger = options.logger ?? silentLogger;
    this.#ownsListener = options.listener === undefined;
    this.#listener =
      options.listener ??
      new PgListener({
        connection: options.connection ?? "",
        logger: this.#logger,
        applicationName: "cyclium-bus",
      });
    this.#nodeIdentity = options.nodeIdentity;
    this.#maxInlineBytes = options.maxInlineBytes ?? MAX_INLINE_EVENT_BYTES;
    this.#registry = new SubscriberRegistry(this.#logger);
    this.#inline = new MicroBatcher({
      run: async (payloads) => {
        await notifyMany({ db: this.#db, channel: BUS_CHANNEL, payloads });
        return payloads.map(() => true as const);
      },
      maxBatch: 200,
    });
    this.#cleanup =
      options.cleanup === false
        ? false
        : {
            intervalMs: options.cleanup?.intervalMs ?? 10 * 60_000,
            retentionMs: options.cleanup?.retentionMs ?? 60 * 60_000,
          };
  }

  /** Creates the bus and LISTENs on `cyclium_bus`; resolves once events can be received. */
  static async start(options: PgBusOptions): Promise<PgBus> {
    const bus = new PgBus(options);
    await bus.#start();
    return bus;
  }

  /** The listener this bus receives on, so other components can share its connection. */
  get listener(): PgListener {
    return this.#listener;
  }

  async publish<P>(topic: string, payload: P, opts?: PublishOptions): Promise<BusEvent<P>> {
    if (this.#closed) throw new Error("bus is closed");
    return publishBusEvent({
      db: opts?.tx ?? this.#db,
      topic,
      payload,
      source: this.#nodeIdentity,
      maxInlineBytes: this.#maxInlineBytes,
      sendInline: opts?.tx === undefined ? (eventJson) => this.#inline.add(eventJson) : undefined,
    });
  }

  inlineNotification<P>(
    topic: string,
    payload: P,
  ): { channel: string; payload: string } | undefined {
    if (this.#closed) return undefined;
    const eventJson = serializeEvent(createBusEvent(topic, payload, this.#nodeIdentity));
    if (Buffer.byteLength(eventJson, "utf8") > this.#maxInlineBytes) return undefined;
    return { channel: BUS_CHANNEL, payload: eventJson };
  }

  subscribe(topic: string, handler: BusHandler): Unsubscribe {
    return this.#registry.subscribe(topic, handler);
  }

  /** Runs the cleanup once; exposed for operators and tests. Returns the number of rows deleted. */
  async deleteOldEvents(retentionMs?: number): Promise<number> {
    const olderThanMs = retentionMs ?? (this.#cleanup === false ? 0 : this.#cleanup.retentionMs);
    return deleteOldBusEvents({ db: this.#db, olderThanMs });
  }

  /** Stops receiving. Waits for stored events being loaded, not for handlers still running. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#cleanupTimer);
    await this.#unlisten?.();
    await this.#receiving;
    this.#registry.clear();
    if (this.#ownsListener) await this.#listener.close();
  }

  async #start(): Promise<void> {
    if (this.#ownsListener) await this.#listener.start();
    this.#unlisten = await this.#listener.listen(BUS_CHANNEL, (text) => this.#receive(text));
    if (this.#cleanup !== false) {
      const { intervalMs } = this.#cleanup;
      this.#cleanupTimer = setInterval(() => void this.#runCleanup(), intervalMs);
      this.#cleanupTimer.unref();
    }
  }

  #receive(text: string): void {
    const message = decodeWireMessage(text);
    if (message === undefined) {
      this.#logger.warn(
        { channel: BUS_CHANNEL },
        "ignoring a notification that is not a bus event",
      );
      return;
    }
    const topic = message.kind === "inline" ? message.event.topic : message.topic;
    // Nothing here listens to this topic: skip it, and above all skip loading a stored event.
    if (!this.#registry.hasSubscribers(topic)) return;
    // An inline event with nothing ahead of it is dispatched at once: a promise link per event
    // was most of the garbage of a 100,000-event burst. Behind a stored event that is still
    // loading it waits its turn, so delivery keeps NOTIFY's order.
    if (message.kind === "inline" && this.#queued === 0) {
      if (!this.#closed) void this.#registry.dispatch(message.event);
      return;
    }
    this.#queued += 1;
    this.#receiving = this.#receiving
      .then(async () => {
        const event = await this.#resolve(message);
        if (event !== undefined && !this.#closed) void this.#registry.dispatch(event);
      })
      .catch((err: unknown) => this.#logger.error({ err, topic }, "bus delivery failed"))
      .finally(() => {
        this.#queued -= 1;
      });
  }

  async #resolve(message: WireMessage): Promise<BusEvent | undefined> {
    if (message.kind === "inline") return message.event;
    for (let attempt = 1; attempt <= LOAD_ATTEMPTS; attempt += 1) {
      try {
        const stored = await loadBusEvent({ db: this.#db, id: message.ref });
        if (stored === undefined) {
          this.#logger.warn({ ref: message.ref }, "stored bus event is gone; dropping it");
          return undefined;
        }
        const event = parseEvent(stored);
        if (event === undefined) {
          this.#logger.warn({ ref: message.ref }, "stored bus event is malformed; dropping it");
        }
        return event;
      } catch (err) {
        const level = attempt < LOAD_ATTEMPTS ? "warn" : "error";
        this.#logger[level]({ err, ref: message.ref, attempt }, "loading stored bus event failed");
        if (attempt < LOAD_ATTEMPTS) await delay(100 * attempt);
      }
    }
    return undefined;
  }

  async #runCleanup(): Promise<void> {
    try {
      const deleted = await this.deleteOldEvents();
      if (deleted > 0) this.#logger.debug({ deleted }, "deleted old cyclium_bus_events rows");
    } catch (err) {
      this.#logger.warn({ err }, "cyclium_bus_events cleanup failed; will retry");
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
