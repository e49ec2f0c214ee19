import { ActorQueue, type QueuedEpisode, type QueuedEpisodeResult } from "./actor-queue";
import type { LocalRunner } from "./local-runner";

export interface EpisodeSlotsOptions {
  runner: LocalRunner;
  /** The actor's current limit (a dynamic actor's may change while it runs). */
  maxConcurrent: (actorId: string) => number;
  /** While true no queued episode starts (the node is stopping). */
  isDraining: () => boolean;
}

/**
 * The per-actor queues of one node and the episodes running from them: an episode starts when its
 * actor has fewer than `maxConcurrent` running, in arrival order, and each end starts the next.
 */
export class EpisodeSlots {
  readonly #o: EpisodeSlotsOptions;
  readonly #queues = new Map<string, ActorQueue>();
  readonly #running = new Set<Promise<void>>();
  readonly #listeners = new Set<(actorId: string) => void>();

  constructor(options: EpisodeSlotsOptions) {
    this.#o = options;
  }

  runningCount(actorId: string): number {
    return this.#queues.get(actorId)?.running ?? 0;
  }

  queuedCount(actorId: string): number {
    return this.#queues.get(actorId)?.length ?? 0;
  }

  /** Queues an episode and starts what the actor's free slots allow. */
  push(actorId: string, entry: QueuedEpisode): void {
    this.#queue(actorId).push(entry);
    this.#pump(actorId);
  }

  /** Ids of the actor's episodes in memory here: queued or running. */
  heldIds(actorId: string): string[] {
    return this.#queues.get(actorId)?.heldIds() ?? [];
  }

  /** Actors with episodes waiting in memory. */
  queuedActorIds(): string[] {
    return [...this.#queues].filter(([, queue]) => queue.length > 0).map(([actorId]) => actorId);
  }

  /** Empties one actor's queue (it may no longer run here); running episodes are not affected. */
  takeQueued(actorId: string): QueuedEpisode[] {
    return this.#queues.get(actorId)?.takeAll() ?? [];
  }

  /** Removes the oldest queued episode that may be shed (never a recovered one). */
  shedOldest(actorId: string): QueuedEpisode | undefined {
    return this.#queues.get(actorId)?.shedOldest();
  }

  /** Empties every queue (the node is stopping); running episodes are not affected. */
  takeAllQueued(): QueuedEpisode[] {
    return [...this.#queues.values()].flatMap((queue) => queue.takeAll());
  }

  /** Settles when every episode running now has ended. */
  async whenIdle(): Promise<void> {
    await Promise.all([...this.#running]);
  }

  get runningTotal(): number {
    return this.#running.size;
  }

  /**
   * Starts what every actor's limit allows now: after a limit grew, queued episodes start at once
   * (a shrunk limit starts nothing; running episodes finish). Listeners hear of each actor that
   * has room left, so the backlog refills and the poller claims into it.
   */
  pumpAll(): void {
    for (const actorId of [...this.#queues.keys()]) {
      this.#pump(actorId);
      const queue = this.#queues.get(actorId);
      if (queue !== undefined && queue.running < this.#o.maxConcurrent(actorId)) {
        for (const listener of [...this.#listeners]) listener(actorId);
      }
    }
  }

  /** Called after an episode ended and its slot was reused or freed. */
  onSlotFreed(listener: (actorId: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #queue(actorId: string): ActorQueue {
    let queue = this.#queues.get(actorId);
    if (queue === undefined) {
      queue = new ActorQueue();
      this.#queues.set(actorId, queue);
    }
    return queue;
  }

  #pump(actorId: string): void {
    const queue = this.#queues.get(actorId);
    if (queue === undefined) return;
    const max = this.#o.maxConcurrent(actorId);
    while (!this.#o.isDraining() && queue.running < max) {
      const entry = queue.shift();
      if (entry === undefined) return;
      this.#start(actorId, queue, entry);
    }
  }

  #start(actorId: string, queue: ActorQueue, entry: QueuedEpisode): void {
    queue.running += 1;
    queue.runningIds.add(entry.episode.id);
    const run = this.#o.runner
      .run(entry.episode, {
        recovered: entry.recovered,
        resume: entry.resume,
        ...(entry.triggerRequestId === undefined
          ? {}
          : { triggerRequestId: entry.triggerRequestId }),
      })
      .catch((error: unknown): QueuedEpisodeResult => ({ kind: "error", error }))
      .then((result) => {
        queue.running -= 1;
        queue.runningIds.delete(entry.episode.id);
        entry.settle(result);
        this.#pump(actorId);
        for (const listener of [...this.#listeners]) listener(actorId);
      })
      .finally(() => this.#running.delete(run));
    this.#running.add(run);
  }
}
