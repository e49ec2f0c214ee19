import pg from "pg";
import { silentLogger, type Logger } from "../telemetry/index";

/** Receives the NOTIFY payload ('' when the sender gave none). */
export type NotificationHandler = (payload: string, channel: string) => void | Promise<void>;

export interface PgListenerOptions {
  /**
   * Settings for the one dedicated listening connection. Never a pooled connection: a pool hands
   * LISTEN to whichever connection is free and may close it later, silently dropping channels.
   */
  connection: string | pg.ClientConfig;
  logger?: Logger;
  /** Reconnect backoff: doubles from `initialDelayMs` up to `maxDelayMs`, with jitter. */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /**
   * How often the idle connection is probed with `SELECT 1`, so a half-open socket (peer gone
   * without a FIN) is noticed in seconds rather than after the kernel's keepalive timeout. 0 = off.
   */
  healthCheckIntervalMs?: number;
  /** Shown in pg_stat_activity.application_name. */
  applicationName?: string;
}

/** PostgreSQL truncates identifiers to NAMEDATALEN-1 bytes; a longer LISTEN would never match. */
const MAX_CHANNEL_BYTES = 63;

/**
 * One LISTEN connection per process, shared by every channel (bus events, trigger request
 * wake-ups, mode changes). After the connection is lost it reconnects with backoff, LISTENs every
 * channel again and runs the `onReconnect` hooks: NOTIFY is not queued for absent listeners, so
 * consumers use the hook to catch up on state they may have missed during the gap.
 */
export class PgListener {
  readonly #config: pg.ClientConfig;
  readonly #logger: Logger;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #healthCheckIntervalMs: number;
  readonly #channels = new Map<string, Set<NotificationHandler>>();
  readonly #reconnectHooks = new Set<() => void | Promise<void>>();
  #client: pg.Client | undefined;
  #backendPid: number | undefined;
  #failedAttempts = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #healthTimer: NodeJS.Timeout | undefined;
  #started = false;
  #closed = false;

  constructor(options: PgListenerOptions) {
    const base: pg.ClientConfig =
      typeof options.connection === "string"
        ? { connectionString: options.connection }
        : { ...options.connection };
    this.#config = {
      ...base,
      keepAlive: true,
      application_name: options.applicationName ?? base.application_name ?? "cyclium-listener",
    };
    this.#logger = options.logger ?? silentLogger;
    this.#initialDelayMs = options.reconnect?.initialDelayMs ?? 100;
    this.#maxDelayMs = options.reconnect?.maxDelayMs ?? 10_000;
    this.#healthCheckIntervalMs = options.healthCheckIntervalMs ?? 30_000;
  }

  /** Opens the connection. Throws when the first attempt fails, so bad configuration shows at boot. */
  async start(): Promise<void> {
    if (this.#started) return;
    if (this.#closed) throw new Error("listener is closed");
    this.#started = true;
    try {
      await this.#connect();
    } catch (err) {
      this.#started = false;
      throw err;
    }
    if (this.#healthCheckIntervalMs > 0) {
      this.#healthTimer = setInterval(() => void this.#probe(), this.#healthCheckIntervalMs);
      this.#healthTimer.unref();
    }
  }

  get isConnected(): boolean {
    return this.#client !== undefined;
  }

  /** Backend pid of the listening session, for diagnostics (pg_stat_activity, tests). */
  get backendPid(): number | undefined {
    return this.#backendPid;
  }

  /**
   * Adds a handler for a channel, issuing LISTEN when it is the channel's first. Channel names
   * are quoted, so they match `pg_notify('name', ...)` exactly, case included.
   */
  async listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>> {
    if (this.#closed) throw new Error("listener is closed");
    assertChannel(channel);
    const entry: NotificationHandler = (payload, ch) => handler(payload, ch);
    let handlers = this.#channels.get(channel);
    const first = handlers === undefined;
    if (handlers === undefined) {
      handlers = new Set();
      this.#channels.set(channel, handlers);
    }
    handlers.add(entry);
    const client = this.#client;
    if (first && client !== undefined) {
      try {
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      } catch (err) {
        // A lost connection is fine: the reconnect LISTENs every registered channel.
        if (client === this.#client) {
          this.#removeHandler(channel, entry);
          throw err;
        }
      }
    }
    return () => this.#unlisten(channel, entry);
  }

  /** Runs after every successful reconnect (not after the first connect). */
  onReconnect(hook: () => void | Promise<void>): () => void {
    this.#reconnectHooks.add(hook);
    return () => this.#reconnectHooks.delete(hook);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#healthTimer);
    const client = this.#client;
    this.#client = undefined;
    this.#backendPid = undefined;
    this.#channels.clear();
    this.#reconnectHooks.clear();
    if (client !== undefined) await client.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client(this.#config);
    client.on("error", (err: Error) => this.#handleLoss(client, err));
    client.on("end", () => this.#handleLoss(client, undefined));
    client.on("notification", (msg: pg.Notification) =>
      this.#deliver(msg.channel, msg.payload ?? ""),
    );
    try {
      await client.connect();
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      // The keys iterator is live, so a channel added by listen() while we await is included.
      for (const channel of this.#channels.keys()) {
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      if (this.#closed) throw new Error("listener closed while connecting");
      this.#client = client;
      this.#backendPid = rows[0]?.pid;
    } catch (err) {
      client.removeAllListeners("notification");
      await client.end().catch(() => undefined);
      throw err;
    }
  }

  #handleLoss(client: pg.Client, err: Error | undefined): void {
    // Events from a client we already gave up on (or never adopted) are noise.
    if (client !== this.#client || this.#closed) return;
    this.#client = undefined;
    this.#backendPid = undefined;
    client.removeAllListeners("notification");
    void client.end().catch(() => undefined);
    this.#logger.warn(
      { err, channels: [...this.#channels.keys()] },
      "PostgreSQL listener connection lost; reconnecting",
    );
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retryTimer !== undefined) return;
    const ceiling = Math.min(this.#maxDelayMs, this.#initialDelayMs * 2 ** this.#failedAttempts);
    // Jitter spreads the reconnects of many nodes after a database restart.
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#connect().then(
        () => this.#afterReconnect(),
        (err: unknown) => {
          if (this.#closed) return;
          this.#failedAttempts += 1;
          this.#logger.warn(
            { err, attempt: this.#failedAttempts },
            "PostgreSQL listener reconnect failed",
          );
          this.#scheduleReconnect();
        },
      );
    }, delay);
  }

  #afterReconnect(): void {
    this.#logger.info(
      { attempts: this.#failedAttempts + 1, channels: [...this.#channels.keys()] },
      "PostgreSQL listener reconnected",
    );
    this.#failedAttempts = 0;
    for (const hook of [...this.#reconnectHooks]) {
      void Promise.resolve()
        .then(hook)
        .catch((err: unknown) => this.#logger.error({ err }, "listener reconnect hook failed"));
    }
  }

  async #probe(): Promise<void> {
    const client = this.#client;
    if (client === undefined) return;
    const timeoutMs = Math.max(1_000, this.#healthCheckIntervalMs / 2);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.query("SELECT 1"),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("listener health check timed out")), timeoutMs);
        }),
      ]);
    } catch (err) {
      this.#handleLoss(client, err instanceof Error ? err : new Error(String(err)));
    } finally {
      clearTimeout(timer);
    }
  }

  #deliver(channel: string, payload: string): void {
    const handlers = this.#channels.get(channel);
    if (handlers === undefined) return;
    for (const handler of [...handlers]) {
      try {
        const result = handler(payload, channel);
        if (result instanceof Promise) {
          result.catch((err: unknown) => this.#logHandlerFailure(channel, err));
        }
      } catch (err) {
        this.#logHandlerFailure(channel, err);
      }
    }
  }

  #logHandlerFailure(channel: string, err: unknown): void {
    this.#logger.error({ err, channel }, "notification handler failed");
  }

  async #unlisten(channel: string, entry: NotificationHandler): Promise<void> {
    if (!this.#removeHandler(channel, entry)) return;
    const client = this.#client;
    if (client === undefined) return;
    await client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch((err: unknown) => {
      this.#logger.debug({ err, channel }, "UNLISTEN failed; connection is being replaced");
    });
  }

  /** Removes one handler; true when that emptied the channel. */
  #removeHandler(channel: string, entry: NotificationHandler): boolean {
    const handlers = this.#channels.get(channel);
    if (handlers === undefined || !handlers.delete(entry)) return false;
    if (handlers.size > 0) return false;
    this.#channels.delete(channel);
    return true;
  }
}

function assertChannel(channel: string): void {
  if (typeof channel !== "string" || channel.length === 0) {
    throw new TypeError("channel must be a non-empty string");
  }
  if (Buffer.byteLength(channel, "utf8") > MAX_CHANNEL_BYTES) {
    throw new TypeError(`channel name is longer than ${MAX_CHANNEL_BYTES} bytes`);
  }
}
