import { silentLogger, type Logger } from "../telemetry/index";

export interface NotifyCoalescerOptions {
  send: () => Promise<void>;
  /**
   * After a notification, further wake-ups within this window are folded into one trailing
   * notification. 20 ms keeps a single fire's wake-up immediate, while a burst of 500 fires sends
   * about one NOTIFY per 20 ms instead of 500 (each wakes every poller of the cluster).
   */
  windowMs?: number;
  logger?: Logger;
}

/** Leading-edge send, then at most one trailing send per window while wake-ups keep coming. */
export class NotifyCoalescer {
  readonly #send: () => Promise<void>;
  readonly #windowMs: number;
  readonly #logger: Logger;
  #timer: NodeJS.Timeout | undefined;
  #pending = false;
  #inFlight: Promise<void> = Promise.resolve();

  constructor(options: NotifyCoalescerOptions) {
    this.#send = options.send;
    this.#windowMs = options.windowMs ?? 20;
    this.#logger = options.logger ?? silentLogger;
  }

  wake(): void {
    if (this.#timer !== undefined) {
      this.#pending = true;
      return;
    }
    this.#fire();
  }

  /**
   * For a writer about to commit: true when no window is open, in which case the caller sends
   * this wake-up itself inside its transaction (delivered on commit, no statement or commit of
   * its own) and a window opens; false when one is open: then the caller calls `wake()` after
   * its commit (not before, or the trailing send could beat the commit and find nothing).
   */
  takeLeadingEdge(): boolean {
    if (this.#timer !== undefined) return false;
    this.#openWindow();
    return true;
  }

  /** Sends a pending trailing notification now and waits for sends in flight. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending) {
      this.#pending = false;
      this.#fire();
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    await this.#inFlight;
  }

  #fire(): void {
    this.#inFlight = this.#send().catch((err: unknown) => {
      // Pollers also poll on their interval: a lost wake-up delays work, it never loses it.
      this.#logger.warn(
        { err },
        "trigger request NOTIFY failed; pollers will find it on their interval",
      );
    });
    this.#openWindow();
  }

  #openWindow(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#pending) {
        this.#pending = false;
        this.#fire();
      }
    }, this.#windowMs);
    this.#timer.unref();
  }
}
