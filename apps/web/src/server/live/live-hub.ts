import { ALL_TOPICS, type Bus, type Unsubscribe } from "@cyclium/core/console";
import { LIVE_CONTROL_TOPICS, type TLiveHint, toLiveHint } from "./live-hint";

export interface TLiveHubOptions {
  /**
   * Open streams per console process. Each holds one HTTP connection and a few hundred bytes
   * here; past the bound a new stream is refused and that browser keeps polling.
   */
  maxSubscribers?: number;
  /**
   * Hints queued for one slow stream before they are folded into a single `live.resync`. A
   * browser refetches per hint at most a few queries, so 200 is far past what one tab absorbs.
   */
  maxQueued?: number;
}

interface TSubscriber {
  accepts: (hint: TLiveHint) => boolean;
  queue: TLiveHint[];
  wake: (() => void) | undefined;
}

export type TLiveStreamResult =
  { kind: "stream"; hints: AsyncGenerator<TLiveHint, void, undefined> } | { kind: "busy" };

/**
 * The console process's fan-out of bus events to browser streams. It subscribes once to the
 * console node's bus (so the node's single LISTEN connection serves every open tab) and keeps
 * one bounded queue per stream, removed when the stream ends (client gone or aborted).
 */
export class LiveHub {
  readonly #maxSubscribers: number;
  readonly #maxQueued: number;
  readonly #subscribers = new Set<TSubscriber>();
  #off: Unsubscribe | undefined;

  constructor(options: TLiveHubOptions = {}) {
    this.#maxSubscribers = options.maxSubscribers ?? 500;
    this.#maxQueued = options.maxQueued ?? 200;
  }

  /** Whether a bus feeds the hub (false while the console node is not running). */
  get pushing(): boolean {
    return this.#off !== undefined;
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /**
   * Feeds the hub from `bus` (null detaches). Open streams are told to resync: whatever happened
   * while no bus was attached reached nobody.
   */
  attach(bus: Pick<Bus, "subscribe"> | null): void {
    this.#off?.();
    this.#off = undefined;
    if (bus !== null) {
      this.#off = bus.subscribe(ALL_TOPICS, (event) => this.publish(toLiveHint(event)));
    }
    for (const subscriber of this.#subscribers) {
      this.#deliver(subscriber, { topic: LIVE_CONTROL_TOPICS.resync, pushing: this.pushing });
    }
  }

  /** Hands one hint to every stream that accepts it. Synchronous: never blocks the bus. */
  publish(hint: TLiveHint): void {
    for (const subscriber of this.#subscribers) {
      if (subscriber.accepts(hint)) this.#deliver(subscriber, hint);
    }
  }

  /**
   * A stream of hints, starting with `live.ready`, until `signal` aborts or the consumer stops
   * iterating. `busy` when the process already serves maxSubscribers streams.
   */
  open(accepts: (hint: TLiveHint) => boolean, signal: AbortSignal | undefined): TLiveStreamResult {
    if (this.#subscribers.size >= this.#maxSubscribers) return { kind: "busy" };
    const subscriber: TSubscriber = { accepts, queue: [], wake: undefined };
    this.#subscribers.add(subscriber);
    return { kind: "stream", hints: this.#stream(subscriber, signal) };
  }

  async *#stream(
    subscriber: TSubscriber,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<TLiveHint, void, undefined> {
    // An abort must end a stream that is waiting for its next hint: a generator's return() is
    // only honoured at a yield, so the wait itself has to wake up.
    const onAbort = () => subscriber.wake?.();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      yield { topic: LIVE_CONTROL_TOPICS.ready, pushing: this.pushing };
      while (signal?.aborted !== true) {
        const next = subscriber.queue.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        await new Promise<void>((resolve) => {
          subscriber.wake = resolve;
        });
        subscriber.wake = undefined;
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.#subscribers.delete(subscriber);
    }
  }

  #deliver(subscriber: TSubscriber, hint: TLiveHint): void {
    if (subscriber.queue.length >= this.#maxQueued) {
      // Too far behind to be told what changed: tell it to refetch everything, once.
      subscriber.queue = [{ topic: LIVE_CONTROL_TOPICS.resync, pushing: this.pushing }];
    } else if (subscriber.queue[0]?.topic !== LIVE_CONTROL_TOPICS.resync) {
      subscriber.queue.push(hint);
    }
    subscriber.wake?.();
  }
}

// One hub per process, on globalThis for the same reason as the console runtime: Next may load
// this module once per server bundle, and all of them must feed from the node's one bus.
const globalForHub = globalThis as typeof globalThis & { cycliumLiveHub?: LiveHub };

export function getLiveHub(): LiveHub {
  globalForHub.cycliumLiveHub ??= new LiveHub();
  return globalForHub.cycliumLiveHub;
}
