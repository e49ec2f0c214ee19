import { silentLogger, type Logger } from "../telemetry/index";
import type { Queryable } from "../db/index";
import type { PgListener } from "../bus/index";
import type { ConcurrencyLimits } from "./concurrency-limits";
import { listConcurrencyOverrides } from "./list-concurrency-overrides";
import { listModeOverrides } from "./list-mode-overrides";
import { ALL_NODES, MODES_CHANNEL } from "./mode";
import type { ModeController } from "./mode-controller";

export interface ModeSyncOptions {
  controller: ModeController;
  /**
   * The node's actor limits (cyclium_concurrency_overrides), kept in line on the same channel and
   * reads as the modes. Omit where nothing runs episodes.
   */
  limits?: ConcurrencyLimits;
  /** Pool the overrides are read from. */
  db: Queryable;
  /** The process's shared listener; ModeSync LISTENs on `cyclium_modes` but never closes it. */
  listener: PgListener;
  /**
   * Fallback re-read interval. NOTIFY normally applies a change within milliseconds; the poll
   * bounds the delay at about this much when a notification is lost (listener reconnecting).
   * Default 1000 ms, the SPEC's "within a second".
   */
  pollIntervalMs?: number;
  logger?: Logger;
}

/**
 * Keeps a node's ModeController in line with cyclium_mode_overrides, so another process (the
 * console) can switch this node's modes. Re-reads the rows for '*' and this node on every
 * relevant NOTIFY, after a listener reconnect, and on a fallback interval.
 */
export class ModeSync {
  readonly #controller: ModeController;
  readonly #limits: ConcurrencyLimits | undefined;
  readonly #db: Queryable;
  readonly #listener: PgListener;
  readonly #pollIntervalMs: number;
  readonly #logger: Logger;
  #timer: NodeJS.Timeout | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  #offReconnect: (() => void) | undefined;
  #running: Promise<void> | undefined;
  #queued: Promise<void> | undefined;
  #failing = false;
  #stopped = false;

  private constructor(options: ModeSyncOptions) {
    this.#controller = options.controller;
    this.#limits = options.limits;
    this.#db = options.db;
    this.#listener = options.listener;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * LISTENs, then reads the overrides once; rejects when that first read fails, so a node does
   * not start in a mode the operators have already overridden.
   */
  static async start(options: ModeSyncOptions): Promise<ModeSync> {
    const sync = new ModeSync(options);
    await sync.#start();
    return sync;
  }

  /**
   * Re-reads the overrides now. Calls made while a read is running share one follow-up read that
   * starts after it, so a burst of notifications costs at most two queries.
   */
  sync(): Promise<void> {
    if (this.#running === undefined) {
      this.#running = this.#readAndApply().finally(() => {
        this.#running = undefined;
      });
      return this.#running;
    }
    this.#queued ??= this.#running
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        return this.sync();
      });
    return this.#queued;
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#offReconnect?.();
    await this.#unlisten?.();
    await this.#running?.catch(() => undefined);
  }

  async #start(): Promise<void> {
    const identity = this.#controller.nodeIdentity;
    this.#unlisten = await this.#listener.listen(MODES_CHANNEL, (target) => {
      // The payload is the changed row's target_node; other nodes' changes are not ours.
      if (target === ALL_NODES || target === identity || target === "") this.#syncInBackground();
    });
    this.#offReconnect = this.#listener.onReconnect(() => this.#syncInBackground());
    await this.sync();
    this.#timer = setInterval(() => this.#syncInBackground(), this.#pollIntervalMs);
    this.#timer.unref();
  }

  #syncInBackground(): void {
    if (this.#stopped) return;
    this.sync().catch((err: unknown) => {
      // Once per outage, not once per poll: the fallback poll runs every second.
      if (this.#failing) return;
      this.#failing = true;
      this.#logger.warn({ err }, "reading mode overrides failed; keeping the modes in force");
    });
  }

  async #readAndApply(): Promise<void> {
    const readAt = this.#controller.generation;
    const targetNodes = [ALL_NODES, this.#controller.nodeIdentity];
    const [rows, limitRows] = await Promise.all([
      listModeOverrides({ db: this.#db, targetNodes }),
      this.#limits === undefined ? [] : listConcurrencyOverrides({ db: this.#db, targetNodes }),
    ]);
    if (this.#stopped) return;
    this.#limits?.apply(limitRows);
    if (this.#failing) {
      this.#failing = false;
      this.#logger.info({}, "reading mode overrides works again");
    }
    this.#controller.applyOverrides(rows, readAt);
  }
}
