import type { Queryable } from "../db/index";
import type { FreedLimit, LimitFreedListener, LimitRule } from "../limits/index";
import type { Logger } from "../telemetry/index";
import { wakeTriggerRequestPollers } from "../deferred/wake-trigger-request-pollers";

/**
 * Who is woken when a limited episode that ran here ends (SPEC section 16: a freed slot wakes a
 * waiting node at once, no spinning). This node has a free slot by construction, so its own
 * request poller is offered the wake-up first, in process (no NOTIFY): it polls at once and wakes
 * the cluster only when that poll does not reuse the slot (the actor is not run here now, the
 * node drains, nothing startable was in its pick). Without a poller that takes it, every poller
 * of the env is woken with one NOTIFY, as before.
 *
 * Measured with `pnpm bench` (global limit 24, 2 processes): every end woke both pollers, both
 * raced for the slot and most of their picks were refused (docs/benchmarks.md).
 */
export class LimitWakeups {
  readonly #listeners = new Set<LimitFreedListener>();
  /** Per env, a NOTIFY in flight; ends meanwhile fold into one more, so a burst costs two. */
  readonly #notifying = new Map<string, { again: boolean }>();

  constructor(private readonly options: { db: Queryable; logger: Logger }) {}

  /** The node's poller: offered every freed limit first (see LimitFreedListener). */
  onLimitFreed(listener: LimitFreedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A limited episode that ran here, under `rules`, no longer runs. */
  freed(env: string | null, rules: readonly LimitRule[]): void {
    const freed: FreedLimit = {
      env,
      keys: rules.filter((rule) => rule.c === "concurrency").map((rule) => rule.k),
    };
    for (const listener of this.#listeners) {
      if (listener(freed)) return;
    }
    this.notify(env);
  }

  /** Wakes every poller of the env with one NOTIFY (coalesced while one is in flight). */
  notify(env: string | null): void {
    const key = env ?? "";
    const state = this.#notifying.get(key);
    if (state !== undefined) {
      state.again = true;
      return;
    }
    const next = { again: false };
    this.#notifying.set(key, next);
    const send = async (): Promise<void> => {
      do {
        next.again = false;
        await wakeTriggerRequestPollers({ wakeups: [{ env }] }, this.options.db).catch(
          (err: unknown) =>
            this.options.logger.warn({ err }, "could not wake pollers after a limited episode"),
        );
      } while (next.again);
      this.#notifying.delete(key);
    };
    void send();
  }
}
