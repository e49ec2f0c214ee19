import { performance } from "node:perf_hooks";
import type { PgListener } from "../bus/index";
import type { Queryable } from "../db/index";
import type { Episode } from "../episodes/index";
import { assertNever } from "../errors/index";
import type { Mode } from "../modes/index";
import type { FreedLimit, LimitFreedListener, LimitWait } from "../limits/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { startJitteredInterval, type JitteredInterval } from "../timers/index";
import { DEFAULT_PRIORITY_AGEING_MS } from "./age-trigger-requests";
import { claimTriggerRequests, type ClaimedTriggerRequest } from "./claim-trigger-requests";
import { dispatchStartedEpisodes, type StartedEpisodeLease } from "./dispatch-started-episodes";
import { DueTimer } from "./due-timer";
import { nextDueTriggerRequest } from "./next-due-trigger-request";
import { releaseTriggerRequests } from "./release-trigger-requests";
import { runRequestMaintenance } from "./request-maintenance";
import type { LimitedRequests } from "./start-limited-requests";
import { RequestSettler } from "./request-settler";
import { startRequestedEpisodes } from "./start-requested-episodes";
import { wakeTriggerRequestPollers } from "./wake-trigger-request-pollers";
import {
  TRIGGER_REQUESTS_CHANNEL,
  ZTriggerRequestWakeup,
  type TTriggerRequestOpts,
} from "./trigger-request";

/**
 * A claimed request's episode queued on this node, or why not (its actor's queue is full and drops
 * arrivals, the actor is not hosted here, the node is stopping): the request goes back to pending.
 */
export type DispatchResult =
  | { kind: "queued"; settled: Promise<DispatchSettled> }
  | { kind: "dropped" | "unknown_actor" | "stopping" };

/**
 * How a dispatched request's episode ended up here, so what is left to do with the request:
 * `request_completed`, the episode's end statement already completed it; `ran`, it ran (or ended
 * otherwise: busy, no longer pending, left running, shed), complete it; `not_run`, it never ran
 * (the node stopped first, or the database failed), release it to pending; `request_released`,
 * it was started ahead and put back to pending with its request (unstartEpisodes): nothing left.
 */
export type DispatchSettled =
  | { kind: "request_completed" | "ran" | "not_run" | "request_released" }
  /**
   * A cluster-wide limit refused its start (SPEC section 16): back to pending with the refusal
   * kept, no poller woken (the limited episode's end, or the rate limit's `until`, does).
   */
  | { kind: "limited"; wait: LimitWait };

/**
 * CYCLIUM_TRIGGER_POLL_INTERVAL_MS default: the fallback behind the NOTIFY every new request, a
 * deferred episode and a released request send (and the poll after a listener reconnect). At
 * 5 s it was one of an idle worker's five commits a second (issue 28).
 */
export const DEFAULT_TRIGGER_POLL_INTERVAL_MS = 15_000;

/**
 * Five statements a round (request-maintenance.ts): at 30 s they were 0.13-0.17 of an idle
 * worker's commits a second (issue 28). Requests of a gone node wait for its liveness window
 * (15 s) first anyway, and the round that puts them back wakes every poller of their env; the
 * priority ageing is a function of the clock, so a round computes it whole, up to a round late.
 */
export const DEFAULT_REQUEST_MAINTENANCE_MS = 60_000;

/** What the poller needs from the node's actor host. */
export interface PollerHost {
  /** Actors hosted on this node. */
  actorIds(): string[];
  /** Slots an actor could start right now (max concurrent − running − queued). */
  freeCapacity(actorId: string): number;
  /**
   * Queues a claimed request's episode; `settled` resolves when it has run (or will not), with
   * what is left to do with the request.
   */
  dispatch(
    episode: Episode,
    /** `priority`: the request's claim priority (orders the local queue it waits in). */
    opts: TTriggerRequestOpts & {
      triggerRequestId: string;
      started?: StartedEpisodeLease;
      priority?: number;
    },
  ): DispatchResult;
  onSlotFreed(listener: (actorId: string) => void): () => void;
  /** Limited episodes' ends here, offered to the poller first (SPEC section 16). */
  onLimitFreed?(listener: LimitFreedListener): () => void;
}

export interface PollerModes {
  readonly nodeMode: Mode;
  effectiveMode(actorId: string): Mode;
  /** When given, a mode change wakes the poller (a node switched to full starts at once). */
  onChange?(listener: () => void): () => void;
}

export interface TriggerRequestPollerOptions {
  db: Queryable;
  /** Shared listener; the poller LISTENs on cyclium_trigger_requests but never closes it. */
  listener: PgListener;
  host: PollerHost;
  modes: PollerModes;
  nodeIdentity: string;
  /** CYCLIUM_TRIGGER_POLL_INTERVAL_MS: the fallback when no NOTIFY arrives (default 15 s). */
  intervalMs: number;
  /** CYCLIUM_TRIGGER_POLL_SOURCE_STACK; null = every stack. */
  sourceStack: string | null;
  /** CYCLIUM_TRIGGER_POLL_SOURCE_ENV, defaulting to the node's env; strict. */
  sourceEnv: string | null;
  /** Pending requests older than this expire. Default 1 hour. */
  ttlMs?: number;
  /** Expiry and orphan release run this often. Default DEFAULT_REQUEST_MAINTENANCE_MS. */
  maintenanceIntervalMs?: number;
  /** A due request's claim priority rises one level per this many ms waited. Default 30 s. */
  priorityAgeingMs?: number;
  /**
   * Set with the built-in PostgreSQL claims (`episodeLeasesInRow`): a poll starts the episodes of
   * the requests it picks in one statement, each under its own lease of this many seconds, and
   * deletes the requests in it (startRequestedEpisodes, SPEC section 4). Unset: requests are
   * claimed, and completed with their episode's end (a claim row per run).
   */
  inRowLeaseSeconds?: number;
  /**
   * The actors under cluster-wide limits (runtime's limitedRequestsOf): a start of their episodes
   * straight from their requests (startRequestedEpisodes) must pass it on, so the limit gate
   * applies there too. The claim path's gate is in the runner's start statements.
   */
  limited?: LimitedRequests;
  /** Called with the episodes that expiry failed (the node publishes their `episode.failed`). */
  onEpisodesExpired?: (episodes: Episode[]) => void;
  logger: Logger;
  telemetry: Telemetry;
}

/**
 * Dispatches deferred trigger requests on a full node (SPEC section 6). Polls when woken by a
 * NOTIFY, on its interval, and again at once while a poll filled some actor's free slots (more
 * are likely waiting) and a slot frees up. Polls only while the node-wide mode is `full` and only
 * for actors whose effective mode here is `full`.
 */
export class TriggerRequestPoller {
  readonly #o: TriggerRequestPollerOptions;
  readonly #ttlMs: number;
  readonly #settler: RequestSettler;
  #pollTimer: JitteredInterval | undefined;
  /** Armed for the earliest delayed request of this scope (SPEC section 16). */
  readonly #due = new DueTimer(() => this.wake());
  #maintenanceTimer: JitteredInterval | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  #offSlotFreed: (() => void) | undefined;
  #offLimitFreed: (() => void) | undefined;
  /**
   * Concurrency keys whose slots limited episodes that ended here freed, with how many: the next
   * poll should reuse them, and whatever it does not reuse wakes the env's other pollers.
   */
  readonly #freed = new Map<string, number>();
  #offReconnect: (() => void) | undefined;
  #offModes: (() => void) | undefined;
  #polling: Promise<number> | undefined;
  #again = false;
  /** Actors whose last claim used all their free slots: a freed slot re-polls for them. */
  readonly #backlogged = new Set<string>();
  readonly #inFlight = new Set<Promise<void>>();
  /** Ids of the requests dispatched here and not yet settled. */
  readonly #held = new Set<string>();
  #stopped = false;
  #failing = false;
  /** Armed for the earliest `until` of a rate limit that refused a start here. */
  #limitTimer: NodeJS.Timeout | undefined;
  #limitWakeAt: number | undefined;

  private constructor(options: TriggerRequestPollerOptions) {
    this.#o = options;
    this.#ttlMs = options.ttlMs ?? 60 * 60_000;
    this.#settler = new RequestSettler({
      db: options.db,
      node: options.nodeIdentity,
      wakeup: { env: options.sourceEnv },
    });
  }

  static async start(options: TriggerRequestPollerOptions): Promise<TriggerRequestPoller> {
    const poller = new TriggerRequestPoller(options);
    await poller.#start();
    return poller;
  }

  /** Polls soon; wake-ups during a poll fold into one follow-up poll. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#polling !== undefined) {
      this.#again = true;
      return;
    }
    this.#polling = this.#pollLoop().finally(() => {
      this.#polling = undefined;
    });
  }

  /** One poll now (tests, benchmarks); returns how many requests were claimed. */
  async pollOnce(): Promise<number> {
    await this.#polling?.catch(() => 0);
    return this.#claimAndDispatch();
  }

  /** Expires, ages, releases and completes stale requests now. */
  async runMaintenance(): Promise<void> {
    const putBack = await runRequestMaintenance({
      db: this.#o.db,
      nodeIdentity: this.#o.nodeIdentity,
      sourceStack: this.#o.sourceStack,
      sourceEnv: this.#o.sourceEnv,
      ttlMs: this.#ttlMs,
      ageingMs: this.#o.priorityAgeingMs ?? DEFAULT_PRIORITY_AGEING_MS,
      held: [...this.#held],
      onEpisodesExpired: this.#o.onEpisodesExpired,
      logger: this.#o.logger,
      telemetry: this.#o.telemetry,
    });
    if (putBack > 0) {
      this.wake();
      // The other nodes too: only new requests NOTIFY, and their fallback poll is 15 s.
      await wakeTriggerRequestPollers({ wakeups: [{ env: this.#o.sourceEnv }] }, this.#o.db);
    }
  }

  /** Stops polling; requests already dispatched keep running and are completed as they finish. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#pollTimer?.stop();
    this.#due.stop();
    clearTimeout(this.#limitTimer);
    this.#maintenanceTimer?.stop();
    this.#offSlotFreed?.();
    this.#offLimitFreed?.();
    // Freed slots no poll here will reuse: the other nodes' pollers take them.
    if (this.#freed.size > 0) this.#wakeOthers();
    this.#offReconnect?.();
    this.#offModes?.();
    await this.#unlisten?.();
    await this.#polling?.catch(() => undefined);
  }

  /** Waits until every dispatched request has been marked completed or released. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) {
      await this.#settler.flush();
      await Promise.all(this.#inFlight);
    }
  }

  async #start(): Promise<void> {
    const { listener, host, intervalMs } = this.#o;
    this.#unlisten = await listener.listen(TRIGGER_REQUESTS_CHANNEL, (payload) => {
      if (!this.#wakeupConcernsUs(payload)) return;
      // A new request may be a delayed one: look up the earliest due time after this poll.
      this.#due.lookAhead();
      this.wake();
    });
    this.#offReconnect = listener.onReconnect(() => {
      this.#due.lookAhead();
      this.wake();
    });
    this.#offModes = this.#o.modes.onChange?.(() => this.wake());
    this.#offSlotFreed = host.onSlotFreed((actorId) => {
      if (this.#backlogged.has(actorId)) this.wake();
    });
    this.#offLimitFreed = host.onLimitFreed?.((freed) => this.#limitFreed(freed));
    // Jittered: on the heartbeat's 5 s, in step with it, the two took two pooled connections.
    this.#pollTimer = startJitteredInterval(() => this.wake(), intervalMs);
    this.#maintenanceTimer = startJitteredInterval(
      () =>
        void this.runMaintenance().catch((err: unknown) =>
          this.#o.logger.warn({ err }, "trigger request maintenance failed"),
        ),
      this.#o.maintenanceIntervalMs ?? DEFAULT_REQUEST_MAINTENANCE_MS,
    );
    this.wake();
  }

  /**
   * A limited episode that ran here ended (SPEC section 16): this node has a free slot, so it
   * polls first, in process; #reuseFreed wakes the other nodes only for what that poll did not
   * reuse. Declined (the runner NOTIFYs every poller of the env) when this poller cannot take
   * the slot's waiting requests: another env, one stack only (the key spans stacks), claims
   * without the episode's own lease (the start is in the runner, after the poll), not polling.
   */
  #limitFreed(freed: FreedLimit): boolean {
    const { inRowLeaseSeconds, sourceStack, sourceEnv, modes } = this.#o;
    if (this.#stopped || inRowLeaseSeconds === undefined || sourceStack !== null) return false;
    if (freed.env !== sourceEnv || modes.nodeMode !== "full") return false;
    for (const key of freed.keys) this.#freed.set(key, (this.#freed.get(key) ?? 0) + 1);
    this.wake();
    return true;
  }

  /**
   * After a poll: takes the slots its starts reused (an episode started holding a freed key) off
   * #freed, first those freed before the poll (`before`), then those freed during it (its pick
   * may have counted them already; a poll after it would find their room taken and wake the
   * cluster for nothing). A slot freed before the poll that it did not reuse (the actor is not
   * run here now, no room here, nothing startable in its pick) wakes every poller of the env with
   * one NOTIFY; one freed during it is the next poll's.
   */
  #reuseFreed(before: ReadonlyMap<string, number>, started: readonly Episode[]): void {
    if (this.#freed.size === 0) return;
    const reused = new Map<string, number>();
    for (const episode of started) {
      for (const rule of this.#o.limited?.rulesFor(episode) ?? []) {
        if (this.#freed.has(rule.k)) reused.set(rule.k, (reused.get(rule.k) ?? 0) + 1);
      }
    }
    let wakeOthers = false;
    for (const [key, count] of this.#freed) {
      const freedBefore = before.get(key) ?? 0;
      const took = reused.get(key) ?? 0;
      if (freedBefore > took) wakeOthers = true;
      const left = count - Math.max(freedBefore, took);
      if (left > 0) this.#freed.set(key, left);
      else this.#freed.delete(key);
    }
    if (wakeOthers) this.#wakeOthers();
  }

  #wakeOthers(): void {
    const { db, sourceEnv, logger } = this.#o;
    void wakeTriggerRequestPollers({ wakeups: [{ env: sourceEnv }] }, db).catch((err: unknown) =>
      logger.warn({ err }, "could not wake pollers after a limited episode"),
    );
  }

  /** A rate limit's refusal: poll again when a start frees up, not before (no spinning). */
  #wakeAt(until: Date | undefined): void {
    if (until === undefined || this.#stopped) return;
    const at = until.getTime();
    if (this.#limitWakeAt !== undefined && this.#limitWakeAt <= at) return;
    clearTimeout(this.#limitTimer);
    this.#limitWakeAt = at;
    // A few ms late: the database's clock decides, and an early poll only finds it still full.
    this.#limitTimer = setTimeout(
      () => {
        this.#limitWakeAt = undefined;
        this.wake();
      },
      Math.max(0, at - Date.now()) + 5,
    );
    this.#limitTimer.unref();
  }

  #wakeupConcernsUs(payload: string): boolean {
    let parsed: unknown;
    try {
      parsed = payload === "" ? {} : JSON.parse(payload);
    } catch {
      return true;
    }
    const wakeup = ZTriggerRequestWakeup.safeParse(parsed);
    if (!wakeup.success) return true;
    const { sourceStack, sourceEnv } = this.#o;
    if (wakeup.data.env !== undefined && wakeup.data.env !== sourceEnv) return false;
    if (
      sourceStack !== null &&
      wakeup.data.stack !== undefined &&
      wakeup.data.stack !== sourceStack
    ) {
      return false;
    }
    return true;
  }

  async #pollLoop(): Promise<number> {
    let total = 0;
    do {
      this.#again = false;
      const before = new Map(this.#freed);
      const started: Episode[] = [];
      let claimed: number;
      try {
        claimed = await this.#claimAndDispatch(started);
        total += claimed;
        if (this.#failing) this.#o.logger.info({}, "trigger request polling works again");
        this.#failing = false;
      } catch (err) {
        // Logged once per outage; the interval keeps trying.
        if (!this.#failing) this.#o.logger.warn({ err }, "trigger request poll failed; will retry");
        this.#failing = true;
        return total;
      } finally {
        this.#reuseFreed(before, started);
      }
      // Inside the loop: a wake-up that arrives while the next due time is looked up sets
      // #again and polls once more. (After the loop it was lost, and a request fired then waited
      // for the fallback poll: a deploy test saw an episode start seconds late.)
      if (this.#due.wanted(claimed)) {
        const { db, sourceStack, sourceEnv } = this.#o;
        await this.#due
          .arm(() => nextDueTriggerRequest({ sourceStack, sourceEnv }, db))
          .catch((err: unknown) =>
            this.#o.logger.warn({ err }, "could not look up the next due trigger request"),
          );
      }
    } while (this.#again && !this.#stopped);
    return total;
  }

  /** `started`: receives the episodes the poll started here under their own lease. */
  async #claimAndDispatch(started: Episode[] = []): Promise<number> {
    const { db, host, modes, nodeIdentity, sourceStack, sourceEnv } = this.#o;
    if (this.#stopped || modes.nodeMode !== "full") return 0;
    const limits = host
      .actorIds()
      .filter((actorId) => modes.effectiveMode(actorId) === "full")
      .map((actorId) => ({ actorId, limit: host.freeCapacity(actorId) }))
      .filter((entry) => entry.limit > 0);
    if (limits.length === 0) return 0;
    if (this.#o.inRowLeaseSeconds !== undefined) {
      return this.#startAndDispatch(limits, this.#o.inRowLeaseSeconds, started);
    }
    const claimed = await claimTriggerRequests(
      { node: nodeIdentity, limits, sourceStack, sourceEnv },
      db,
    );
    this.#noteBacklog(limits, claimed);
    const released: string[] = [];
    for (const request of claimed) {
      if (!this.#dispatch(request)) released.push(request.id);
    }
    // No wake-up here: this node would be woken too, and claim and release the same rows again.
    if (released.length > 0)
      await releaseTriggerRequests({ ids: released, node: nodeIdentity }, db);
    return claimed.length;
  }

  /** Actors whose last poll used all their free slots: a freed slot polls again for them. */
  #noteBacklog(
    limits: readonly { actorId: string; limit: number }[],
    taken: readonly { episode: Episode }[],
  ): void {
    const perActor = new Map<string, number>();
    for (const { episode } of taken) {
      perActor.set(episode.actorId, (perActor.get(episode.actorId) ?? 0) + 1);
    }
    for (const { actorId, limit } of limits) {
      if ((perActor.get(actorId) ?? 0) >= limit) this.#backlogged.add(actorId);
      else this.#backlogged.delete(actorId);
    }
  }

  /**
   * The episode's own lease (SPEC section 4): one statement starts the picked requests' episodes
   * here and consumes the requests; the started episodes go to the host to run.
   */
  async #startAndDispatch(
    limits: { actorId: string; limit: number }[],
    leaseSeconds: number,
    startedHere: Episode[],
  ): Promise<number> {
    const { db, host, nodeIdentity, sourceStack, sourceEnv, limited, logger, telemetry } = this.#o;
    const leaseStartedAt = performance.now();
    // The cluster-wide limits' gate (SPEC section 16) applies to this start as to every other.
    const started = await startRequestedEpisodes(
      {
        node: nodeIdentity,
        limits,
        sourceStack,
        sourceEnv,
        leaseSeconds,
        ...(limited === undefined
          ? {}
          : { limited: { ...limited, onRateWait: (until: Date) => this.#wakeAt(until) } }),
      },
      db,
    );
    const startDurationMs = performance.now() - leaseStartedAt;
    startedHere.push(...started.map((entry) => entry.episode));
    this.#noteBacklog(limits, started);
    const runs = await dispatchStartedEpisodes({
      startDurationMs,
      db,
      host,
      nodeIdentity,
      started,
      leaseStartedAt,
      logger,
      telemetry,
    });
    for (const run of runs) {
      const settle: Promise<void> = run.then(() => {
        this.#inFlight.delete(settle);
      });
      this.#inFlight.add(settle);
    }
    return started.length;
  }

  /** Hands one claimed request to the host; false when it must go back to pending. */
  #dispatch(request: ClaimedTriggerRequest): boolean {
    const { host, logger, telemetry } = this.#o;
    const dispatched = host.dispatch(request.episode, {
      ...request.opts,
      triggerRequestId: request.id,
      priority: request.priority,
    });
    if (dispatched.kind !== "queued") {
      logger.warn(
        { request_id: request.id, reason: dispatched.kind },
        "could not dispatch trigger request; releasing it",
      );
      return false;
    }
    telemetry.emit(
      "cyclium.trigger_request.dispatched",
      { count: 1, duration_ms: Date.now() - request.insertedAt.getTime() },
      { request_id: request.id, episode_id: request.episode.id, actor_id: request.episode.actorId },
    );
    const settle = dispatched.settled
      .then((settled) => {
        switch (settled.kind) {
          // The runner's end statement completes the request with the episode: no second write.
          case "request_completed":
          case "request_released":
            return undefined;
          case "ran":
            return this.#settler.complete(request.id);
          case "not_run":
            return this.#settler.release(request.id);
          case "limited":
            this.#wakeAt(settled.wait.until);
            return this.#settler.releaseLimited(request.id, settled.wait);
          default:
            return assertNever(settled, "dispatch settled");
        }
      })
      .catch((err: unknown) => {
        // The maintenance pass completes or releases it later.
        logger.warn({ err, request_id: request.id }, "could not settle trigger request");
      })
      .finally(() => {
        this.#inFlight.delete(settle);
        this.#held.delete(request.id);
      });
    this.#held.add(request.id);
    this.#inFlight.add(settle);
    return true;
  }
}
