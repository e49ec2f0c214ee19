import { claimCap, type LimitFreedListener } from "../limits/index";
import { setMaxListeners } from "node:events";
import { runsOnStack, type ActorDefinition } from "../actors/index";
import type { Episode } from "../episodes/index";
import { loadEpisode } from "../episodes/load-episode";
import type {
  DispatchResult,
  DispatchSettled,
  PollerHost,
  StartedEpisodeLease,
  TTriggerRequestOpts,
} from "../deferred/index";
import { freeCapacity, queueFull, dropsArrival, type ActorLoad } from "./actor-capacity";
import type {
  ActorHostOptions,
  EnqueueOptions,
  EnqueueResult,
  QueueResult,
} from "./actor-host-options";
import type { QueuedEpisodeResult } from "./actor-queue";
import { shedQueuedEpisode } from "./cancel-shed-episode";
import { dispatchSettled } from "./dispatch-settled";
import { drainRunning } from "./drain-running";
import { EpisodeSlots } from "./episode-slots";
import { FireIntake } from "./fire-intake";
import type { FireResult, TFireRequest } from "./fire-request";
import { handOverQueue, handOverUnrunnable } from "./hand-over-queued";
import { LifecycleAnnouncements } from "./lifecycle-announcements";
import { LocalRunner } from "./local-runner";
import { QueueBacklog, type BacklogHost } from "./queue-backlog";

type HostState = "idle" | "running" | "stopping" | "stopped";

/**
 * A node's actors at run time: per actor an in-memory FIFO queue and at most
 * `maxConcurrentEpisodes` strategies running here, plus at most as many episodes whose strategy
 * has returned and whose end statement has not committed yet (EpisodeSlots). Fires create the
 * episode (deduplicated) and either queue it for the local runner (full) or defer it to a full
 * node (trigger_only) (FireIntake); queue rows past memory wait in the table (QueueBacklog).
 */
export class ActorHost implements PollerHost {
  readonly runner: LocalRunner;
  readonly #o: ActorHostOptions;
  readonly #slots: EpisodeSlots;
  readonly #backlog: QueueBacklog;
  readonly #fires: FireIntake;
  readonly #announcements: LifecycleAnnouncements;
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
      ...(options.endsPerSlot === undefined ? {} : { endsPerSlot: options.endsPerSlot }),
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
    this.#announcements = new LifecycleAnnouncements(options);
    this.#fires = new FireIntake({
      ...options,
      host: {
        running: () => this.#state === "running",
        hosted: (actorId) => this.#hosted(actorId),
        queueFull: (actor) => queueFull(actor, this.#load(actor)),
        place: (episode, priority) => this.#placeFired(episode, priority),
      },
      announcements: this.#announcements,
      signal: this.#hardStop.signal,
    });
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

  /** RecoveryTarget: restarted episodes whose rows already name this node (see QueueBacklog). */
  takeOwned(episodes: readonly { id: string; actorId: string }[]): Promise<void> {
    return this.#backlog.takeOwned(episodes);
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

  /** PollerHost: requests the poller may claim for the actor now (see actor-capacity.ts). */
  freeCapacity(actorId: string): number {
    const actor = this.#hosted(actorId);
    if (actor === undefined || this.#state !== "running") return 0;
    const free = freeCapacity(actor, this.#load(actor), this.#o.requestPrefetch ?? 0);
    return Math.min(free, claimCap(actor) ?? free);
  }

  onSlotFreed(listener: (actorId: string) => void): () => void {
    return this.#slots.onSlotFreed(listener);
  }

  /** PollerHost: offered first the wake-up of a limited episode's end here (LimitWakeups). */
  onLimitFreed(listener: LimitFreedListener): () => void {
    return this.runner.limitWakeups.onLimitFreed(listener);
  }

  /** Creates an episode for an expectation and runs or defers it here (see FireIntake). */
  fire(request: TFireRequest): Promise<FireResult> {
    return this.#fires.fire(request);
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
    // A started episode (its own lease taken) is never dropped or shed: it was free room.
    if (
      !recovered &&
      options.started === undefined &&
      queueFull(actor, this.#load(actor)) &&
      actor.episodeOverflow !== "queue"
    ) {
      this.#announcements.overflowed(actor);
      if (dropsArrival(actor)) return { kind: "dropped" };
      shedQueuedEpisode(this.#slots.shedOldest(actor.identifier), {
        ...this.#o,
        limit: actor.maxQueuedEpisodes ?? 0,
      });
    }
    let settle!: (result: QueuedEpisodeResult) => void;
    const settled = new Promise<QueuedEpisodeResult>((resolve) => (settle = resolve));
    this.#slots.push(actor.identifier, {
      episode,
      recovered,
      resume: options.resume,
      triggerRequestId: options.triggerRequestId,
      owned: options.owned ?? false,
      started: options.started,
      priority:
        options.priority ??
        this.#o.registry.expectation(episode.actorId, episode.expectationId)?.priority ??
        0,
      settle,
    });
    // A local episode a cluster-wide limit refused (SPEC section 16) goes to the cluster's
    // deferred queue, where a refused request waits for the limit without anyone polling for it.
    if (options.triggerRequestId === undefined) {
      void settled.then((result) =>
        result.kind === "limited" ? this.#deferLimited(episode) : undefined,
      );
    }
    // Still in the queue after the push: every slot was busy, so it waits.
    if (this.#slots.queuedCount(actor.identifier) > 0) {
      this.#announcements.queued(episode, this.queuedCount(episode.actorId));
    }
    return { kind: "queued", settled };
  }

  async #deferLimited(episode: Episode): Promise<void> {
    try {
      const moved = await this.#backlog.deferOwned({ episodeIds: [episode.id] });
      if (moved === 0) {
        this.#o.logger.warn(
          { episode_id: episode.id, actor_id: episode.actorId },
          "a limit refused an episode no queue or request owns; it stays pending",
        );
      }
    } catch (err) {
      this.#o.logger.warn({ err, episode_id: episode.id }, "could not defer a limited episode");
    }
  }

  /**
   * PollerHost: a claimed trigger request's episode, or (`started`) one the poller started here
   * under its own lease, whose request is completed already: its run leaves nothing to settle.
   */
  dispatch(
    episode: Episode,
    opts: TTriggerRequestOpts & {
      triggerRequestId: string;
      started?: StartedEpisodeLease;
      priority?: number;
    },
  ): DispatchResult {
    if (opts.started !== undefined) {
      const { triggerRequestId: _completed, ...rest } = opts;
      const queued = this.enqueue(episode, rest);
      if (queued.kind !== "queued") return queued;
      const settled = queued.settled.then((): DispatchSettled => ({ kind: "request_completed" }));
      return { kind: "queued", settled };
    }
    const queued = this.enqueue(episode, opts);
    if (queued.kind !== "queued") return queued;
    const settled = queued.settled.then(dispatchSettled);
    return { kind: "queued", settled };
  }

  /**
   * Stops taking work, hands queued episodes over (their requests back to pending, the rest as new
   * requests), lets running episodes finish their current step and the ends in flight commit for
   * up to `graceMs`, then aborts them: whatever is unfinished stays `running` for recovery, except
   * episodes started ahead whose strategy never got a slot, which go back to pending at once.
   */
  async stop({ graceMs = 30_000 }: { graceMs?: number } = {}): Promise<void> {
    if (this.#state === "stopped" || this.#state === "stopping") return;
    this.#state = "stopping";
    this.#draining = true;
    await this.#backlog.stop();
    await handOverQueue(this.#slots.takeAllQueued(), { ...this.#o, backlog: this.#backlog });
    await drainRunning(this.#slots.whenIdle(), {
      graceMs,
      running: () => this.#slots.runningTotal,
      hardStop: this.#hardStop,
      logger: this.#o.logger,
    });
    this.#state = "stopped";
  }

  #backlogHost(): BacklogHost {
    return {
      canRun: (actorId) => this.canRun(actorId),
      canAdopt: () => this.#state === "running" && (this.#o.modes.nodeMode ?? "full") === "full",
      heldIds: (actorId) => this.#slots.heldIds(actorId),
      creating: (actorId) => this.#fires.creating(actorId),
      memoryQueued: (actorId) => this.#slots.queuedCount(actorId),
      push: (episode, { recovered }) => {
        this.enqueue(episode, { owned: true, recovered });
      },
      dropUnrunnable: () => {
        for (const actorId of this.#slots.queuedActorIds()) {
          if (this.canRun(actorId)) continue;
          handOverUnrunnable(this.#slots.takeQueued(actorId), this.#o);
        }
      },
    };
  }

  /**
   * A row a fire here created: in memory, unless older rows of the actor wait in the table or
   * memory is at its bound; then the row waits and a refill takes it in order.
   */
  #placeFired(episode: Episode, priority: number): void {
    const memoryFull = this.#slots.queuedCount(episode.actorId) >= this.#backlog.limit;
    if (memoryFull || this.#backlog.spilled(episode.actorId) > 0) {
      this.#backlog.noteSpilled(episode.actorId);
      this.#announcements.queued(episode, this.queuedCount(episode.actorId));
    } else {
      this.enqueue(episode, { owned: true, priority });
    }
  }

  #hosted(actorId: string): ActorDefinition | undefined {
    const actor = this.#o.registry.get(actorId);
    return actor !== undefined && runsOnStack(actor, this.#o.stack) ? actor : undefined;
  }

  #load(actor: ActorDefinition): ActorLoad {
    return {
      slots: this.maxConcurrentEpisodes(actor),
      running: this.runningCount(actor.identifier),
      queued: this.queuedCount(actor.identifier),
    };
  }
}
