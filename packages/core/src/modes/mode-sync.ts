import { startJitteredInterval, type JitteredInterval } from "../timers/index";
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
   * Fallback re-read interval. NOTIFY applies a change within milliseconds, and a listener
   * reconnect re-reads at once, so the poll only bounds the delay when a notification is lost
   * some other way. Default DEFAULT_MODE_POLL_MS.
   */
  pollIntervalMs?: number;
  logger?: Logger;
}

/**
 * The fallback poll's default. At 1 s it was two of an idle worker's 4.6 commits a second
 * (issue 28); NOTIFY and the re-read after every listener reconnect are what keep the SPEC's
 * "within a second", so the poll only has to catch what neither saw.
 */
export const DEFAULT_MODE_POLL_MS = 30_000;

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
  #timer: JitteredInterval | undefined;
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
    this.#pollIntervalMs = options.pollIntervalMs ?? DEFAULT_MODE_POLL_MS;
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
    this.#timer?.stop();
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
    this.#timer = startJitteredInterval(() => this.#syncInBackground(), this.#pollIntervalMs);
  }

  #syncInBackground(): void {
    if (this.#stopped) return;
    this.sync().catch((err: unknown) => {
      // Once per outage, not once per poll.
      if (this.#failing) return;
      this.#failing = true;
      this.#logger.warn({ err }, "reading mode overrides failed; keeping the modes in force");
    });
  }

  async #readAndApply(): Promise<void> {
    const readAt = this.#controller.generation;
    const targetNodes = [ALL_NODES, this.#controller.nodeIdentity];
    // One after the other: in parallel they took a second pooled connection of an idle node.
    const rows = await listModeOverrides({ db: this.#db, targetNodes });
    const limitRows =
      this.#limits === undefined
        ? []
        : await listConcurrencyOverrides({ db: this.#db, targetNodes });
    if (this.#stopped) return;
    this.#limits?.apply(limitRows);
    if (this.#failing) {
      this.#failing = false;
      this.#logger.info({}, "reading mode overrides works again");
    }
    this.#controller.applyOverrides(rows, readAt);
  }
}
