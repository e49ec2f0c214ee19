import type pg from "pg";
import { BUS_CHANNEL, decodeWireMessage, PgListener } from "../bus/index";
import type { Queryable } from "../db/index";
import {
  EPISODE_EVENT_TOPICS,
  loadEpisode,
  type Episode,
  type EpisodeStatus,
} from "../episodes/index";
import { assertNever } from "../errors/index";
import type { Logger } from "../telemetry/index";

/**
 * How an awaited episode ended (SPEC section 17, results), or why the wait ended first. Expected
 * outcomes are values: a failed episode is `failed`, not a thrown error.
 */
export type EpisodeResult =
  | { kind: "completed"; episodeId: string; result: unknown; episode: Episode }
  | {
      kind: "failed";
      episodeId: string;
      error: { class: string | null; message: string | null };
      episode: Episode;
    }
  | { kind: "cancelled"; episodeId: string; episode: Episode }
  /** `timeoutMs` passed first; the episode is still `status`, and goes on. */
  | { kind: "timeout"; episodeId: string; status: EpisodeStatus }
  /** No such episode (a wrong id, or one retention deleted). */
  | { kind: "not_found"; episodeId: string | undefined };

export interface ResultOptions {
  /** How long to wait for the end; without it, as long as it takes. */
  timeoutMs?: number | undefined;
  /** Ends the wait early with `timeout`. */
  signal?: AbortSignal | undefined;
}

export interface EpisodeResultsOptions {
  db: Queryable;
  /** Where the LISTEN connection goes; undefined: poll only (e.g. behind PgBouncer). */
  listenTo: pg.ClientConfig | undefined;
  /** Polling interval while NOTIFY is not heard (default 1 s), and its backstop (5 s) while it is. */
  pollMs?: number | undefined;
  logger: Logger;
}

const END_TOPICS = new Set<string>(Object.values(EPISODE_EVENT_TOPICS));
const HEARD_POLL_MS = 5_000;

/**
 * Waits for episodes to end: a read of the row, then a wake-up by the `episode.completed` /
 * `failed` / `cancelled` NOTIFY every end sends, with polling as the fallback. The listening
 * connection is opened on the first wait and shared by every wait of the client; where LISTEN
 * cannot work (PgBouncer in transaction mode hands it to any server connection) polling alone
 * still finds the end.
 */
export class EpisodeResults {
  readonly #o: EpisodeResultsOptions;
  readonly #waiters = new Map<string, Set<() => void>>();
  #listener: PgListener | undefined;
  #listening: Promise<boolean> | undefined;
  #closed = false;

  constructor(options: EpisodeResultsOptions) {
    this.#o = options;
  }

  async wait(episodeId: string, options: ResultOptions = {}): Promise<EpisodeResult> {
    const deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
    const heard = await this.#listen();
    const pollMs = heard ? HEARD_POLL_MS : (this.#o.pollMs ?? 1_000);
    for (;;) {
      // Registered before the read, so an end committed between the read and the wait still wakes it.
      const wake = this.#register(episodeId);
      try {
        const episode = await loadEpisode(episodeId, this.#o.db);
        if (episode === undefined) return { kind: "not_found", episodeId };
        const ended = endedResult(episode);
        if (ended !== undefined) return ended;
        const remaining = deadline - Date.now();
        if (remaining <= 0 || options.signal?.aborted === true || this.#closed) {
          return { kind: "timeout", episodeId, status: episode.status };
        }
        await wake.until(Math.min(remaining, pollMs), options.signal);
      } finally {
        wake.release();
      }
    }
  }

  /** Stops listening; waits in progress end with `timeout` at their next turn. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const wakes of this.#waiters.values()) for (const wake of wakes) wake();
    await this.#listener?.close();
  }

  #register(episodeId: string) {
    let wake: () => void = () => undefined;
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    let wakes = this.#waiters.get(episodeId);
    if (wakes === undefined) {
      wakes = new Set();
      this.#waiters.set(episodeId, wakes);
    }
    wakes.add(wake);
    return {
      until: (ms: number, signal: AbortSignal | undefined) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(done, ms);
          signal?.addEventListener("abort", done, { once: true });
          void woken.then(done);
          function done() {
            clearTimeout(timer);
            signal?.removeEventListener("abort", done);
            resolve();
          }
        }),
      release: () => {
        wakes.delete(wake);
        if (wakes.size === 0) this.#waiters.delete(episodeId);
      },
    };
  }

  /** Opens the shared LISTEN once; false (and polling) when there is none or it cannot start. */
  #listen(): Promise<boolean> {
    if (this.#o.listenTo === undefined || this.#closed) return Promise.resolve(false);
    this.#listening ??= this.#startListener(this.#o.listenTo);
    return this.#listening;
  }

  async #startListener(config: pg.ClientConfig): Promise<boolean> {
    const listener = new PgListener({
      connection: config,
      logger: this.#o.logger,
      applicationName: "cyclium-client-results",
    });
    try {
      await listener.start();
      await listener.listen(BUS_CHANNEL, (text) => this.#hear(text));
      // NOTIFY is not queued while the connection is down: look again at every waited episode.
      listener.onReconnect(() => this.#wakeAll());
      this.#listener = listener;
      return true;
    } catch (err) {
      this.#o.logger.warn({ err }, "cannot LISTEN for episode ends; polling for results instead");
      await listener.close();
      return false;
    }
  }

  #hear(text: string): void {
    if (this.#waiters.size === 0) return;
    const message = decodeWireMessage(text);
    if (
      message === undefined ||
      !END_TOPICS.has(message.kind === "ref" ? message.topic : message.event.topic)
    )
      return;
    if (message.kind === "ref") {
      // A large event travels by reference; rare for an episode end, so wake every wait.
      this.#wakeAll();
      return;
    }
    const payload = message.event.payload;
    const episodeId =
      typeof payload === "object" && payload !== null && "episodeId" in payload
        ? payload.episodeId
        : undefined;
    if (typeof episodeId !== "string") return;
    for (const wake of this.#waiters.get(episodeId) ?? []) wake();
  }

  #wakeAll(): void {
    for (const wakes of this.#waiters.values()) for (const wake of wakes) wake();
  }
}

/** The result an ended episode gives, or undefined while it has not ended. */
function endedResult(episode: Episode): EpisodeResult | undefined {
  const episodeId = episode.id;
  switch (episode.status) {
    case "completed":
      return { kind: "completed", episodeId, result: episode.result, episode };
    case "failed":
      return {
        kind: "failed",
        episodeId,
        error: { class: episode.errorClass, message: episode.errorMessage },
        episode,
      };
    case "cancelled":
      return { kind: "cancelled", episodeId, episode };
    case "pending":
    case "running":
    case "waiting":
      return undefined;
    default:
      return assertNever(episode.status);
  }
}
