import type { Logger } from "../telemetry/index";
import { ALL_TOPICS, type BusEvent, type BusHandler, type Unsubscribe } from "./types";

/**
 * Topic -> handlers, shared by every Bus implementation so they isolate handlers the same way:
 * a handler that throws or rejects is logged and never prevents the others from running.
 */
/** What dispatch returns when every handler was synchronous: no promise per event. */
const SETTLED: Promise<void> = Promise.resolve();

export class SubscriberRegistry {
  readonly #handlers = new Map<string, Set<BusHandler>>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  subscribe(topic: string, handler: BusHandler): Unsubscribe {
    if (typeof topic !== "string" || topic.length === 0) {
      throw new TypeError("bus topic must be a non-empty string");
    }
    // Wrap so subscribing the same function twice yields two independent subscriptions.
    const entry: BusHandler = (event) => handler(event);
    let set = this.#handlers.get(topic);
    if (set === undefined) {
      set = new Set();
      this.#handlers.set(topic, set);
    }
    set.add(entry);
    return () => {
      const current = this.#handlers.get(topic);
      if (current === undefined) return;
      current.delete(entry);
      if (current.size === 0) this.#handlers.delete(topic);
    };
  }

  /** True when at least one handler would receive an event of this topic. */
  hasSubscribers(topic: string): boolean {
    return this.#handlers.has(topic) || this.#handlers.has(ALL_TOPICS);
  }

  /**
   * Invokes every matching handler synchronously, in subscription order. The returned promise
   * settles (never rejects) once async handlers have settled; callers may ignore it.
   */
  dispatch(event: BusEvent): Promise<void> {
    // Snapshot first: a handler that unsubscribes (itself or another) mid-dispatch must not
    // make us skip a handler that was subscribed when the event arrived.
    const targets = [
      ...(this.#handlers.get(event.topic) ?? []),
      ...(this.#handlers.get(ALL_TOPICS) ?? []),
    ];
    // Frozen because every handler receives the same object.
    const shared = Object.freeze({ ...event });
    const pending: Promise<void>[] = [];
    for (const handler of targets) {
      try {
        const result = handler(shared);
        if (result instanceof Promise) {
          pending.push(result.catch((err: unknown) => this.#logFailure(event, err)));
        }
      } catch (err) {
        this.#logFailure(event, err);
      }
    }
    return pending.length === 0 ? SETTLED : Promise.all(pending).then(() => undefined);
  }

  clear(): void {
    this.#handlers.clear();
  }

  #logFailure(event: BusEvent, err: unknown): void {
    this.#logger.error(
      { err, topic: event.topic, eventId: event.id },
      "bus handler failed; other handlers unaffected",
    );
  }
}
