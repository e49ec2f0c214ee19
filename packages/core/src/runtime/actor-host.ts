import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import {
  findExpectation,
  runsOnStack,
  type ActorDefinition,
  type ActorRegistry,
} from "../actors/index";
import { announce, LIFECYCLE_TOPICS, type Bus, type LifecyclePayload } from "../bus/index";
import type { WorkClaims } from "../claims/index";
import type { Connectable, Queryable } from "../db/index";
import { createEpisode, DEFAULT_CREATE_JITTER_MS, type Episode } from "../episodes/index";
import { loadEpisode } from "../episodes/load-episode";
import { CycliumError } from "../errors/index";
import type { Mode } from "../modes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { inSpan, SPAN_ATTRIBUTES, SPAN_NAMES, SpanKind } from "../tracing/index";
import type {
  DeferredRunner,
  DispatchResult,
  PollerHost,
  TTriggerRequestOpts,
} from "../trigger-requests/index";
import type { QueuedEpisodeResult } from "./actor-queue";
import { cancelShedEpisode } from "./cancel-shed-episode";
import {
  fireDedupeKey,
  parseFireRequest,
  type FireResult,
  type TFireRequest,
} from "./fire-request";
import { dispatchSettled } from "./dispatch-settled";
import { handOverQueued } from "./hand-over-queued";
import { EpisodeSlots } from "./episode-slots";
import { LocalRunner } from "./local-runner";
import { QueueBacklog, type BacklogHost, type QueueOptions } from "./queue-backlog";
import { retryTransient } from "./write-retry";

/** How long a fire resends its episode insert through a database outage (1-3 s restarts). */
const CREATE_RETRY_MS = 30_000;

export interface ActorHostOptions {
  /** A pool (episodes end in one transaction). */
  db: Queryable & Connectable;
  registry: ActorRegistry;
  modes: { effectiveMode(actorId: string): Mode; readonly nodeMode?: Mode };
  /** Operator-set limits (cyclium_concurrency_overrides); absent or undefined: the definition's. */
  limits?: { maxConcurrentEpisodes(actorId: string): number | undefined };
  claims: WorkClaims;
  leaseSeconds: number;
  nodeIdentity: string;
  stack: string | null;
  env: string | null;
  /** Writes trigger requests for trigger_only actors and hands the queue over on stop. */
  deferred?: DeferredRunner;
  bus?: Bus;
  /** Upper bound of the random wait before a triggered insert (SPEC section 3); 0 in tests. */
  jitterMs?: number;
  /**
   * Trigger requests a poller may claim per actor beyond its free slots (default 0): they wait in
   * this node's queue and start the moment a slot frees, instead of after another claim round
   * trip, as graphile-worker's localQueue does. On the bench's drain (24 slots, one worker, a
   * loaded machine), 192 took commits per episode from 0.63 to 0.17 and episodes/s from ~450 to
   * ~600. Requests held here are released on stop, and by other nodes when this one dies.
   */
  requestPrefetch?: number;
  /** The queue's memory bound and reconcile rhythm (see queue-backlog.ts). */
  queue?: QueueOptions;
  logger: Logger;
  telemetry: Telemetry;
}

export interface EnqueueOptions {
  recovered?: boolean;
  resume?: unknown;
  /** The poller's request, released back to pending if the episode never starts here. */
  triggerRequestId?: string;
  /** The row carries `queued_by` = this node (see QueuedEpisode.owned). */
  owned?: boolean;
}

/**
 * An episode handed to the queue here, or why not: `dropped` when the actor's queue is full and
 * its overflow policy drops arrivals, `stopping` once the host no longer takes work.
 */
export type QueueResult =
  | { kind: "queued"; settled: Promise<QueuedEpisodeResult> }
  | { kind: "dropped" | "unknown_actor" | "stopping" };

/** enqueueEpisode reads the row first: it may be gone or already past pending. */
export type EnqueueResult = QueueResult | { kind: "not_found" | "not_pending" };

type HostState = "idle" | "running" | "stopping" | "stopped";

/**
 * A node's actors at run time: per actor an in-memory FIFO queue and at most
 * `maxConcurrentEpisodes` strategies running here, plus at most as many episodes whose strategy
 * has returned and whose end statement has not committed yet (EpisodeSlots). Fires create the
 * episode (deduplicated) and either queue it for the local runner (full) or defer it to a full
 * node (trigger_only).
 */
export class ActorHost implements PollerHost {
  readonly runner: LocalRunner;
  readonly #o: ActorHostOptions;
  readonly #slots: EpisodeSlots;
  readonly #backlog: QueueBacklog;
  /** Fires per actor between their insert and their place in memory (or the backlog). */
  readonly #creating = new Map<string, number>();
  readonly #hardStop = new AbortController();
  #state: HostState = "idle";
  #draining = false;

  constructor(options: ActorHostOptions) {
    this.#o = options;
    // Every running episode's heartbeat listens on it (16 per node is ordinary): not a leak.
    setMaxListeners(0, this.#hardStop.signal);
    this.runner = new LocalRunner({
      db: options.db,
      claims: options.claims,
      leaseSeconds: options.leaseSeconds,
      nodeIdentity: options.nodeIdentity,
      registry: options.registry,
      ...(options.bus ? { bus: options.bus } : {}),
      logger: options.logger,
      telemetry: options.telemetry,
      hardStop: this.#hardStop.signal,
      isDraining: () => this.#draining,
    });
    this.#slots = new EpisodeSlots({
      runner: this.runner,
      maxConcurrent: (actorId) => {
        const actor = options.registry.get(actorId);
        return actor === undefined ? 1 : this.maxConcurrentEpisodes(actor);
      },
      isDraining: () => this.#draining,
    });
    this.#backlog = new QueueBacklog({
      ...options.queue,
      db: options.db,
      nodeIdentity: options.nodeIdentity,
      scope: { stack: options.stack, env: options.env },
      host: this.#backlogHost(),
      logger: options.logger,
      telemetry: options.telemetry,
    });
    this.#slots.onSlotFreed((actorId) => this.#backlog.onSlotFreed(actorId));
  }

  start(): void {
    if (this.#state !== "idle") return;
    this.#state = "running";
    this.#backlog.start();
  }

  /**
   * An actor's limit on this node now: the operator's override for this node (or '*'), else the
   * definition's `maxConcurrentEpisodes`.
   */
  maxConcurrentEpisodes(
    actor: Pick<ActorDefinition, "identifier" | "maxConcurrentEpisodes">,
  ): number {
    return this.#o.limits?.maxConcurrentEpisodes(actor.identifier) ?? actor.maxConcurrentEpisodes;
  }

  /**
   * After the limits changed: a grown limit starts queued episodes now and lets the backlog and
   * the poller fill the new slots; a shrunk one lets running episodes finish and starts no more
   * until fewer run than the limit.
   */
  applyLimits(): void {
    if (this.#state !== "running") return;
    this.#slots.pumpAll();
  }

  /** Compares the queue with the database now (after a mode change; the sweep asks too). */
  reconcileQueue(): Promise<void> {
    return this.#backlog.reconcile();
  }

  /**
   * Hosted here and allowed to execute here now: the host runs and the actor's effective mode on
   * this node is `full` (an override to trigger_only or disabled binds queued and recovered work
   * as it binds fresh fires).
   */
  canRun(actorId: string): boolean {
    return (
      this.#state === "running" &&
      this.#hosted(actorId) !== undefined &&
      this.#o.modes.effectiveMode(actorId) === "full"
    );
  }

  /**
   * RecoveryTarget: restarted episodes whose rows already name this node as their queue's owner
   * (the sweep stamped them in its transaction). Those it may run join the actor's queue through
   * the table, oldest first; the rest go to the cluster as trigger requests.
   */
  async takeOwned(episodes: readonly { id: string; actorId: string }[]): Promise<void> {
    const byActor = new Map<string, string[]>();
    for (const episode of episodes) {
      byActor.set(episode.actorId, [...(byActor.get(episode.actorId) ?? []), episode.id]);
    }
    const elsewhere: string[] = [];
    for (const [actorId, ids] of byActor) {
      if (!this.canRun(actorId)) {
        elsewhere.push(...ids);
        continue;
      }
      this.#backlog.noteSpilled(actorId, ids.length);
      await this.#backlog.refill(actorId);
    }
    if (elsewhere.length > 0) await this.#backlog.deferOwned({ episodeIds: elsewhere });
  }

  hasActor(actorId: string): boolean {
    return this.#hosted(actorId) !== undefined;
  }

  actorIds(): string[] {
    return this.#o.registry
      .list()
      .filter((a) => runsOnStack(a, this.#o.stack))
      .map((a) => a.identifier);
  }

  /** The actor's strategies running here now: at most its maxConcurrentEpisodes here. */
  runningCount(actorId: string): number {
    return this.#slots.runningCount(actorId);
  }

  /** The actor's episodes here whose strategy returned and whose end has not committed yet. */
  endingCount(actorId: string): number {
    return this.#slots.endingCount(actorId);
  }

  /** Waiting here: in memory, plus this node's rows not yet taken into memory. */
  queuedCount(actorId: string): number {
    return this.#slots.queuedCount(actorId) + this.#backlog.spilled(actorId);
  }

  /**
   * PollerHost: requests the poller may claim for the actor now. Its free slots, or with
   * `requestPrefetch` its free slots plus room for that many queued, never past
   * maxQueuedEpisodes. A prefetching host refills in waves (min(prefetch, slots) at a time):
   * claiming one request each time an episode ends would cost a statement per episode.
   */
  freeCapacity(actorId: string): number {
    const actor = this.#hosted(actorId);
    if (actor === undefined || this.#state !== "running") return 0;
    const slots = this.maxConcurrentEpisodes(actor);
    const ahead = Math.max(0, this.#o.requestPrefetch ?? 0);
    const running = this.runningCount(actorId);
    const queued = this.queuedCount(actorId);
    let room = slots + ahead - running - queued;
    if (actor.maxQueuedEpisodes !== undefined) {
      room = Math.min(room, slots - running + actor.maxQueuedEpisodes - queued);
    }
    const wave = ahead > 0 ? Math.min(ahead, slots) : 1;
    return room >= wave ? room : 0;
  }

  onSlotFreed(listener: (actorId: string) => void): () => void {
    return this.#slots.onSlotFreed(listener);
  }

  /**
   * Creates an episode for an expectation and runs or defers it per the actor's mode here. The
   * console's and REST's fires come through here: its span is the root of the episode's trace.
   */
  fire(request: TFireRequest): Promise<FireResult> {
    const attributes = {
      [SPAN_ATTRIBUTES.actor]: request.actorId,
      [SPAN_ATTRIBUTES.expectation]: request.expectationId,
      [SPAN_ATTRIBUTES.triggerType]: request.triggerType,
      [SPAN_ATTRIBUTES.node]: this.#o.nodeIdentity,
    };
    return inSpan(SPAN_NAMES.fire, { attributes, kind: SpanKind.PRODUCER }, async (span) => {
      const result = await this.#fire(request);
      if (result.kind === "created") span.setAttribute(SPAN_ATTRIBUTES.episodeId, result.episodeId);
      return result;
    });
  }

  async #fire(request: TFireRequest): Promise<FireResult> {
    const req = parseFireRequest(request);
    const { nodeIdentity, stack, env, db, logger, telemetry } = this.#o;
    if (this.#state !== "running")
      throw new CycliumError("shutdown", `Node ${nodeIdentity} is not accepting work.`);
    const actor = this.#hosted(req.actorId);
    if (actor === undefined) {
      throw new CycliumError(
        "not_found",
        `Actor "${req.actorId}" does not run on node ${nodeIdentity}.`,
      );
    }
    if (findExpectation(actor, req.expectationId) === undefined) {
      throw new CycliumError(
        "not_found",
        `Actor "${actor.identifier}" has no expectation "${req.expectationId}".`,
      );
    }
    const mode = this.#o.modes.effectiveMode(actor.identifier);
    if (mode === "disabled") {
      throw new CycliumError(
        "conflict",
        `Actor "${actor.identifier}" is disabled on node ${nodeIdentity}.`,
      );
    }
    if (mode === "full" && this.#queueFull(actor) && this.#dropsArrival(actor)) {
      logger.info(
        {
          actor_id: actor.identifier,
          queued: actor.maxQueuedEpisodes,
          policy: actor.episodeOverflow,
          node: nodeIdentity,
        },
        "fire dropped: every slot is busy and the actor's queue is full",
      );
      this.#overflowed(actor);
      this.#announce(LIFECYCLE_TOPICS.episodeDropped, {
        actor_id: actor.identifier,
        expectation_id: req.expectationId,
        trigger_type: req.triggerType,
      });
      return { kind: "dropped", actorId: actor.identifier, reason: "queue_full" };
    }
    // Only triggered fires race other nodes; a manual fire comes from one caller.
    const jitterMs =
      req.triggerType === "manual" ? 0 : (this.#o.jitterMs ?? DEFAULT_CREATE_JITTER_MS);
    if (jitterMs > 0)
      await sleep(Math.random() * jitterMs, undefined, { signal: this.#hardStop.signal });
    const episode = {
      actorId: actor.identifier,
      expectationId: req.expectationId,
      triggerType: req.triggerType,
      dedupeKey: fireDedupeKey(req, env),
      input: req.input ?? {},
      workflowInstanceId: req.workflowInstanceId ?? null,
      workflowStep: req.workflowStep ?? null,
    };
    if (mode === "trigger_only") {
      if (this.#o.deferred === undefined) throw new Error("trigger_only needs a DeferredRunner");
      const deferred = await this.#o.deferred.defer(episode);
      if (deferred.kind === "deduped") return { kind: "deduped", dedupeKey: deferred.dedupeKey };
      this.#triggered(deferred.episode);
      return { kind: "created", episodeId: deferred.episode.id, deferred: true };
    }
    // A deduplicated insert is resent after a transient error (a database restart between the
    // event and its episode lost 4 of 120 events in the fault suite): ON CONFLICT makes a resend
    // after an ambiguous commit answer "deduped", and the row it did commit names this node's
    // queue, so the reconcile runs it. A fire without a dedupe key is not resent: it could create
    // a second episode.
    // Counted until the row is in memory or noted as spilled: the queue reconcile must not take
    // a row this fire has written but not queued yet for a spilled one (a phantom spill sends
    // later fires to the table, where shed_oldest cannot shed them).
    this.#countCreating(actor.identifier, 1);
    try {
      const firstTry = Date.now();
      const created = await retryTransient(
        () =>
          createEpisode(
            {
              ...episode,
              status: "pending",
              queuedBy: nodeIdentity,
              sourceNode: nodeIdentity,
              sourceStack: stack,
              sourceEnv: env,
              jitterMs: 0,
              logger,
              telemetry,
            },
            db,
          ),
        {
          write: "create",
          mayRetry: () =>
            episode.dedupeKey !== null &&
            this.#state === "running" &&
            Date.now() - firstTry < CREATE_RETRY_MS,
          signal: this.#hardStop.signal,
          telemetry,
          logger,
          meta: { actor_id: actor.identifier, expectation_id: req.expectationId },
        },
      );
      if (created.kind === "deduped") return { kind: "deduped", dedupeKey: created.dedupeKey };
      this.#triggered(created.episode);
      const memoryFull = this.#slots.queuedCount(actor.identifier) >= this.#backlog.limit;
      if (memoryFull || this.#backlog.spilled(actor.identifier) > 0) {
        // Behind older rows, or memory is at its bound: the row waits; a refill takes it in order.
        this.#backlog.noteSpilled(actor.identifier);
        this.#queued(created.episode);
      } else {
        this.enqueue(created.episode, { owned: true });
      }
      return { kind: "created", episodeId: created.episode.id, deferred: false };
    } finally {
      this.#countCreating(actor.identifier, -1);
    }
  }

  /** Hands an existing pending episode (e.g. restarted by recovery) to its actor's queue here. */
  async enqueueEpisode(episodeId: string, options: EnqueueOptions = {}): Promise<EnqueueResult> {
    const episode = await loadEpisode(episodeId, this.#o.db);
    if (episode === undefined) return { kind: "not_found" };
    if (episode.status !== "pending") return { kind: "not_pending" };
    return this.enqueue(episode, options);
  }

  /** Queues an episode whose row the caller already has. */
  enqueue(episode: Episode, options: EnqueueOptions = {}): QueueResult {
    if (this.#state !== "running") return { kind: "stopping" };
    const actor = this.#hosted(episode.actorId);
    if (actor === undefined) return { kind: "unknown_actor" };
    const recovered = options.recovered ?? false;
    if (!recovered && this.#queueFull(actor) && actor.episodeOverflow !== "queue") {
      this.#overflowed(actor);
      if (this.#dropsArrival(actor)) return { kind: "dropped" };
      this.#shedOldest(actor);
    }
    let settle!: (result: QueuedEpisodeResult) => void;
    const settled = new Promise<QueuedEpisodeResult>((resolve) => (settle = resolve));
    this.#slots.push(actor.identifier, {
      episode,
      recovered,
      resume: options.resume,
      triggerRequestId: options.triggerRequestId,
      owned: options.owned ?? false,
      settle,
    });
    // Still in the queue after the push: every slot was busy, so it waits.
    if (this.#slots.queuedCount(actor.identifier) > 0) this.#queued(episode);
    return { kind: "queued", settled };
  }

  /** PollerHost: a claimed trigger request's episode. */
  dispatch(
    episode: Episode,
    opts: TTriggerRequestOpts & { triggerRequestId: string },
  ): DispatchResult {
    const queued = this.enqueue(episode, opts);
    if (queued.kind !== "queued") return queued;
    const settled = queued.settled.then(dispatchSettled);
    return { kind: "queued", settled };
  }

  /**
   * Stops taking work, hands queued episodes over (their requests back to pending, the rest as new
   * requests), lets running episodes finish their current step and the ends in flight commit for
   * up to `graceMs`, then aborts them: whatever is unfinished stays `running` for recovery.
   */
  async stop({ graceMs = 30_000 }: { graceMs?: number } = {}): Promise<void> {
    if (this.#state === "stopped" || this.#state === "stopping") return;
    this.#state = "stopping";
    this.#draining = true;
    await this.#backlog.stop();
    // Owned entries are rows naming this node: one statement below hands all of them over,
    // with those never taken into memory.
    const queued = this.#slots.takeAllQueued();
    await handOverQueued(
      queued.filter((entry) => !entry.owned),
      { deferred: this.#o.deferred, logger: this.#o.logger },
    );
    for (const entry of queued) if (entry.owned) entry.settle({ kind: "not_started" });
    await this.#backlog
      .deferOwned({})
      .then((count) => {
        if (count > 0) this.#o.logger.info({ count }, "handed the queue over as trigger requests");
      })
      .catch((err: unknown) =>
        this.#o.logger.error(
          { err },
          "could not hand the queue over; other nodes adopt it once this node is stopped",
        ),
      );
    const allSettled = this.#slots.whenIdle();
    const timer = sleep(graceMs, undefined, { ref: false }).then(() => "timeout" as const);
    if ((await Promise.race([allSettled.then(() => "done" as const), timer])) === "timeout") {
      this.#o.logger.warn(
        { running: this.#slots.runningTotal },
        "grace period over; aborting running episodes",
      );
      this.#hardStop.abort(
        new CycliumError("shutdown", "The node stopped before the episode finished."),
      );
      await Promise.race([allSettled, sleep(5_000, undefined, { ref: false })]);
    }
    this.#state = "stopped";
  }

  #countCreating(actorId: string, delta: number): void {
    const next = (this.#creating.get(actorId) ?? 0) + delta;
    if (next > 0) this.#creating.set(actorId, next);
    else this.#creating.delete(actorId);
  }

  #backlogHost(): BacklogHost {
    return {
      canRun: (actorId) => this.canRun(actorId),
      canAdopt: () => this.#state === "running" && (this.#o.modes.nodeMode ?? "full") === "full",
      heldIds: (actorId) => this.#slots.heldIds(actorId),
      creating: (actorId) => this.#creating.get(actorId) ?? 0,
      memoryQueued: (actorId) => this.#slots.queuedCount(actorId),
      push: (episode, { recovered }) => {
        this.enqueue(episode, { owned: true, recovered });
      },
      dropUnrunnable: () => {
        for (const actorId of this.#slots.queuedActorIds()) {
          if (this.canRun(actorId)) continue;
          const taken = this.#slots.takeQueued(actorId);
          // Owned rows are handed over by the reconcile that called this; a poller's request goes
          // back to pending when its entry settles not_started.
          const unowned = taken.filter((entry) => !entry.owned && !entry.triggerRequestId);
          void handOverQueued(unowned, { deferred: this.#o.deferred, logger: this.#o.logger });
          for (const entry of taken)
            if (entry.owned || entry.triggerRequestId) entry.settle({ kind: "not_started" });
        }
      },
    };
  }

  #hosted(actorId: string): ActorDefinition | undefined {
    const actor = this.#o.registry.get(actorId);
    return actor !== undefined && runsOnStack(actor, this.#o.stack) ? actor : undefined;
  }

  /**
   * No room for one more episode here: its queue holds `maxQueuedEpisodes` and every slot is busy.
   * The second half matters only without a queue (`maxQueuedEpisodes: 0`): an empty queue is then
   * "full", yet a free slot still takes the episode at once.
   */
  #queueFull(actor: ActorDefinition): boolean {
    if (actor.maxQueuedEpisodes === undefined) return false;
    const queued = this.queuedCount(actor.identifier);
    return (
      queued >= actor.maxQueuedEpisodes &&
      this.runningCount(actor.identifier) + queued >= this.maxConcurrentEpisodes(actor)
    );
  }

  /**
   * Whether an arrival at a full queue is refused rather than let in. `shed_oldest` sheds a
   * waiting episode to make room; with no queue nothing waits, and running episodes are never
   * shed (they may be halfway through a side effect), so the arrival is dropped as under `drop`.
   */
  #dropsArrival(actor: ActorDefinition): boolean {
    return (
      actor.episodeOverflow === "drop" ||
      (actor.episodeOverflow === "shed_oldest" && actor.maxQueuedEpisodes === 0)
    );
  }

  #announce(
    topic: (typeof LIFECYCLE_TOPICS)[keyof typeof LIFECYCLE_TOPICS],
    payload: LifecyclePayload,
  ) {
    const { bus, telemetry, logger, nodeIdentity } = this.#o;
    void announce({ bus, telemetry, logger }, topic, { ...payload, node: nodeIdentity });
  }

  #triggered(episode: Episode): void {
    this.#announce(LIFECYCLE_TOPICS.expectationTriggered, {
      episode_id: episode.id,
      actor_id: episode.actorId,
      expectation_id: episode.expectationId,
      trigger_type: episode.triggerType,
      dedupe_key: episode.dedupeKey,
    });
  }

  #queued(episode: Episode): void {
    this.#announce(LIFECYCLE_TOPICS.episodeQueued, {
      episode_id: episode.id,
      actor_id: episode.actorId,
      expectation_id: episode.expectationId,
      queued: this.queuedCount(episode.actorId),
    });
  }

  #overflowed(actor: ActorDefinition): void {
    this.#announce(LIFECYCLE_TOPICS.actorOverflow, {
      actor_id: actor.identifier,
      policy: actor.episodeOverflow,
      max_queued: actor.maxQueuedEpisodes ?? null,
    });
  }

  #shedOldest(actor: ActorDefinition): void {
    const shed = this.#slots.shedOldest(actor.identifier);
    if (shed === undefined) return;
    const { db, bus, logger, telemetry } = this.#o;
    void cancelShedEpisode(shed.episode, {
      db,
      bus,
      limit: actor.maxQueuedEpisodes ?? 0,
      logger,
      telemetry,
    })
      .catch((err: unknown) =>
        logger.warn({ err, episode_id: shed.episode.id }, "could not cancel shed episode"),
      )
      .finally(() => shed.settle({ kind: "shed" }));
  }
}
