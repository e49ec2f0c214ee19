import type { Queryable } from "../db/index";
import { startJitteredInterval, type JitteredInterval } from "../timers/index";
import { countQueuedEpisodes, takeQueuedEpisodes } from "../episodes/queued-episodes";
import type { Episode } from "../episodes/index";
import {
  adoptAbandonedEpisodes,
  DEFAULT_NODE_SILENCE_MS,
} from "../recovery/adopt-abandoned-episodes";
import type { NodeScope } from "../scope/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { deferQueuedEpisodes } from "../deferred/defer-queued-episodes";

/**
 * Episodes per actor a node keeps in memory; the rest of its queue waits as rows. 200 holds a
 * refill of a 24-slot actor for ~8 rounds while keeping a 100,000-event burst to a few MB.
 */
export const DEFAULT_LOCAL_QUEUE_LIMIT = 200;
/**
 * How often a node compares its queue with the database (and adopts gone nodes' queues). Two
 * statements a round: at 5 s they were 0.4 of an idle worker's commits a second (issue 28). A
 * gone node's queue is adopted 15-45 s after its last heartbeat (its running episodes wait for
 * the recovery sweep's 120 s anyway); a mode change, a freed slot and the recovery sweep still
 * reconcile at once.
 */
export const DEFAULT_QUEUE_RECONCILE_MS = 30_000;
/** Rows adopted per reconcile; the next one takes more. */
const ADOPT_BATCH = 1_000;

export interface QueueOptions {
  /** Default DEFAULT_LOCAL_QUEUE_LIMIT. */
  localQueueLimit?: number;
  /** Default DEFAULT_QUEUE_RECONCILE_MS. */
  reconcileIntervalMs?: number;
  /** When another node's queue counts as gone. Default DEFAULT_NODE_SILENCE_MS. */
  nodeSilenceMs?: number;
}

/** What the backlog needs from the node's actor host. */
export interface BacklogHost {
  /** Hosted here, the host running, and the actor's effective mode here `full`. */
  canRun(actorId: string): boolean;
  /** May this node adopt other nodes' queues (its node-wide mode is `full`)? */
  canAdopt(): boolean;
  /** Episodes of the actor in memory: queued or running. */
  heldIds(actorId: string): string[];
  /** Fires of the actor in flight: their rows may be written and not in memory yet. */
  creating(actorId: string): number;
  memoryQueued(actorId: string): number;
  /** Puts a taken row on the actor's in-memory queue. */
  push(episode: Episode, options: { recovered: boolean }): void;
  /** Removes queued entries of actors that may no longer run here (settled `not_started`). */
  dropUnrunnable(): void;
}

export interface QueueBacklogOptions extends QueueOptions {
  db: Queryable;
  nodeIdentity: string;
  scope: NodeScope;
  host: BacklogHost;
  logger: Logger;
  telemetry: Telemetry;
}

/**
 * The part of a node's queue that lives in the database (docs/queues-and-recovery.md). Every
 * pending episode this node fired or restarted carries `queued_by` = this node; memory holds at
 * most `localQueueLimit` per actor, and this class moves rows into memory as slots free
 * (`refill`), finds rows memory lost (a start that failed on a dead connection, a predecessor
 * of the same identity), hands rows over as trigger requests when their actor may not run here,
 * and adopts the queues of gone nodes. `reconcile` does all of it; it runs every
 * `reconcileIntervalMs`, after every mode change, and when the sweep asks.
 */
export class QueueBacklog {
  readonly limit: number;
  readonly #o: QueueBacklogOptions;
  readonly #intervalMs: number;
  /** Rows of an actor owned here but not in memory, as far as this process knows. */
  readonly #spilled = new Map<string, number>();
  /** Rows spilled per actor since the process started: tells a refill what it could not see. */
  readonly #spills = new Map<string, number>();
  readonly #refilling = new Map<string, Promise<void>>();
  #reconciling: Promise<void> | undefined;
  #again = false;
  #timer: JitteredInterval | undefined;

  constructor(options: QueueBacklogOptions) {
    this.#o = options;
    this.limit = Math.max(1, options.localQueueLimit ?? DEFAULT_LOCAL_QUEUE_LIMIT);
    this.#intervalMs = options.reconcileIntervalMs ?? DEFAULT_QUEUE_RECONCILE_MS;
  }

  start(): void {
    if (this.#timer !== undefined) return;
    // The first round right away: a restarted identity takes its predecessor's queue at once.
    void this.reconcile();
    this.#timer = startJitteredInterval(() => void this.reconcile(), this.#intervalMs);
  }

  async stop(): Promise<void> {
    this.#timer?.stop();
    this.#timer = undefined;
    await this.#reconciling;
    await Promise.all(this.#refilling.values());
  }

  spilled(actorId: string): number {
    return this.#spilled.get(actorId) ?? 0;
  }

  /** A new row of this node's queue stays in the table (memory is full, or older rows wait). */
  noteSpilled(actorId: string, count = 1): void {
    this.#spilled.set(actorId, this.spilled(actorId) + count);
    this.#spills.set(actorId, (this.#spills.get(actorId) ?? 0) + count);
  }

  /** Called when a slot of the actor freed: tops memory up once it is half empty. */
  onSlotFreed(actorId: string): void {
    if (this.spilled(actorId) > 0 && this.#o.host.memoryQueued(actorId) <= this.limit / 2) {
      // Nobody awaits this refill: a database error must be logged here, never left as an
      // unhandled rejection, which ends the process (faults s9: a worker died of ECONNREFUSED
      // during a 1-3 s PostgreSQL restart). The rows stay in the table; the reconcile (every 30 s)
      // or the next freed slot takes them.
      this.refill(actorId).catch((err: unknown) =>
        this.#o.logger.warn(
          { err, actor_id: actorId },
          "queue refill failed; the next reconcile retries",
        ),
      );
    }
  }

  /** Moves the actor's oldest rows into memory, up to the limit. One refill per actor at a time. */
  refill(actorId: string): Promise<void> {
    const running = this.#refilling.get(actorId);
    if (running !== undefined) return running;
    const refill = this.#refill(actorId).finally(() => this.#refilling.delete(actorId));
    this.#refilling.set(actorId, refill);
    return refill;
  }

  /** One reconcile at a time; a call during one runs another right after it. */
  reconcile(): Promise<void> {
    if (this.#reconciling !== undefined) {
      this.#again = true;
      return this.#reconciling;
    }
    const run = (async () => {
      do {
        this.#again = false;
        await this.#reconcileOnce().catch((err: unknown) =>
          this.#o.logger.warn({ err }, "queue reconcile failed; retried on the next round"),
        );
      } while (this.#again && this.#timer !== undefined);
    })().finally(() => (this.#reconciling = undefined));
    this.#reconciling = run;
    return run;
  }

  /** Hands the actors' (or all) rows this node owns over as trigger requests. */
  async deferOwned(options: { actorIds?: readonly string[]; episodeIds?: readonly string[] }) {
    const { db, nodeIdentity, scope } = this.#o;
    const count = await deferQueuedEpisodes(
      { node: nodeIdentity, ...options, wakeup: { stack: scope.stack, env: scope.env } },
      db,
    );
    if (options.actorIds === undefined && options.episodeIds === undefined) this.#spilled.clear();
    else for (const actorId of options.actorIds ?? []) this.#spilled.delete(actorId);
    return count;
  }

  /**
   * Restarted episodes whose rows already name this node as their queue's owner (the sweep
   * stamped them in its transaction). Those whose actor may run here join its queue through the
   * table, oldest first; the rest go to the cluster as trigger requests.
   */
  async takeOwned(episodes: readonly { id: string; actorId: string }[]): Promise<void> {
    const byActor = new Map<string, string[]>();
    for (const episode of episodes) {
      byActor.set(episode.actorId, [...(byActor.get(episode.actorId) ?? []), episode.id]);
    }
    const elsewhere: string[] = [];
    for (const [actorId, ids] of byActor) {
      if (!this.#o.host.canRun(actorId)) {
        elsewhere.push(...ids);
        continue;
      }
      this.noteSpilled(actorId, ids.length);
      await this.refill(actorId);
    }
    if (elsewhere.length > 0) await this.deferOwned({ episodeIds: elsewhere });
  }

  async #reconcileOnce(): Promise<void> {
    const { db, nodeIdentity, host, scope, logger, telemetry } = this.#o;
    host.dropUnrunnable();
    if (host.canAdopt()) {
      const adopted = await adoptAbandonedEpisodes(
        {
          node: nodeIdentity,
          scope,
          nodeSilenceMs: this.#o.nodeSilenceMs ?? DEFAULT_NODE_SILENCE_MS,
          limit: ADOPT_BATCH,
        },
        db,
      );
      if (adopted > 0) {
        logger.info({ adopted }, "adopted pending episodes of gone nodes' queues");
        telemetry.emit("cyclium.recovery.adopted", { count: adopted }, { node: nodeIdentity });
        if (adopted === ADOPT_BATCH) this.#again = true;
      }
    }
    const owned = await countQueuedEpisodes({ node: nodeIdentity }, db);
    const elsewhere: string[] = [];
    for (const [actorId, count] of owned) {
      if (!host.canRun(actorId)) {
        elsewhere.push(actorId);
        continue;
      }
      // In memory, or about to be: a fire between its insert and its enqueue is not a spill.
      const held = host.heldIds(actorId).length + host.creating(actorId);
      // Rows not in memory: spilled ones, and any whose start failed or that a predecessor held.
      if (count > held) {
        this.#spilled.set(actorId, Math.max(this.spilled(actorId), count - held));
        await this.refill(actorId);
      }
    }
    if (elsewhere.length > 0) {
      const deferred = await this.deferOwned({ actorIds: elsewhere });
      logger.info(
        { actors: elsewhere, deferred },
        "queued episodes this node may not run handed over as trigger requests",
      );
    }
  }

  async #refill(actorId: string): Promise<void> {
    const { db, nodeIdentity, host } = this.#o;
    if (!host.canRun(actorId)) return;
    const room = this.limit - host.memoryQueued(actorId);
    if (room <= 0) return;
    const spillsBefore = this.#spills.get(actorId) ?? 0;
    const taken = await takeQueuedEpisodes(
      { node: nodeIdentity, actorId, exclude: host.heldIds(actorId), limit: room },
      db,
    );
    for (const episode of taken) {
      host.push(episode, { recovered: episode.phase === "recovered" || episode.attempt > 1 });
    }
    // Fewer rows than room: the table had no more, unless a fire spilled one while the take ran
    // (its row may be newer than the take's snapshot); then the count stays and the next refill
    // finds it, so a later fire cannot overtake it.
    const spilledMeanwhile = (this.#spills.get(actorId) ?? 0) > spillsBefore;
    this.#spilled.set(
      actorId,
      taken.length < room && !spilledMeanwhile
        ? 0
        : Math.max(spilledMeanwhile ? 1 : 0, this.spilled(actorId) - taken.length),
    );
  }
}
