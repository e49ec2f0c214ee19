import { silentLogger, type Logger } from "../telemetry/index";
import { resolveConcurrencyLimits, type ConcurrencyOverrideEntry } from "./concurrency-override";

export type ConcurrencyLimitsListener = (limits: ReadonlyMap<string, number>) => void;

/**
 * A node's operator-set actor limits (cyclium_concurrency_overrides), read on the hot path: the
 * actor host asks `maxConcurrentEpisodes(actorId)` each time it may start an episode, so a new
 * limit binds the next start. ModeSync replaces the rows on every NOTIFY of `cyclium_modes`.
 */
export class ConcurrencyLimits {
  readonly nodeIdentity: string;
  readonly #logger: Logger;
  readonly #listeners = new Set<ConcurrencyLimitsListener>();
  #limits: ReadonlyMap<string, number> = new Map();

  constructor(options: { nodeIdentity: string; logger?: Logger }) {
    this.nodeIdentity = options.nodeIdentity;
    this.#logger = options.logger ?? silentLogger;
  }

  /** The operator's limit for an actor here, or undefined: the definition's holds. */
  maxConcurrentEpisodes(actorId: string): number | undefined {
    return this.#limits.get(actorId);
  }

  /** Limits in force here, actor id -> limit. */
  snapshot(): Record<string, number> {
    return Object.fromEntries(this.#limits);
  }

  /** Replaces the rows; calls the listeners when a limit in force changed. */
  apply(rows: Iterable<ConcurrencyOverrideEntry>): boolean {
    const next = resolveConcurrencyLimits(this.nodeIdentity, rows);
    const same =
      next.size === this.#limits.size &&
      [...next].every(([actorId, limit]) => this.#limits.get(actorId) === limit);
    if (same) return false;
    this.#limits = next;
    this.#logger.info({ limits: this.snapshot() }, "actor concurrency limits changed");
    for (const listener of [...this.#listeners]) {
      try {
        listener(next);
      } catch (err) {
        this.#logger.error({ err }, "concurrency limits listener failed");
      }
    }
    return true;
  }

  /** Calls `listener` after every change of the limits in force. Returns an unsubscribe. */
  onChange(listener: ConcurrencyLimitsListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
