import { performance } from "node:perf_hooks";
import { ActorQueue, type QueuedEpisode, type QueuedEpisodeResult } from "./actor-queue";
import type { LocalRunner } from "./local-runner";
import { SlotGate, type SlotAnswer } from "./start-ahead";

export interface EpisodeSlotsOptions {
  runner: Pick<LocalRunner, "run">;
  /** The actor's current limit (a dynamic actor's may change while it runs). */
  maxConcurrent: (actorId: string) => number;
  /** While true no queued episode starts (the node is stopping). */
  isDraining: () => boolean;
  /** Ends in flight per slot (default ENDS_PER_SLOT); tests of the bound use 1. */
  endsPerSlot?: number;
}

/**
 * The per-actor queues of one node and the episodes running from them: an episode starts when its
 * actor has fewer than `maxConcurrent` strategies running, higher priority first and FIFO within
 * one priority (ActorQueue).
 *
 * Ends are pipelined: a slot frees when the strategy's outcome is known (completed or failed), and
 * the next episode starts while the end statement waits for its batch and commits. The episode
 * stays in memory (`ending`) until then: its claim held, its trigger request claimed, its result,
 * bus event and telemetry released only after the commit, and a stop waits for it. Measured on
 * the bench's drain (24 slots, one-step episodes) each slot waited for two commits in lockstep
 * (start, then end) before taking the next episode, and the worker sat 72 % idle.
 *
 * So per actor and node: at most `maxConcurrent` strategies run at once, plus at most
 * ENDS_PER_SLOT x `maxConcurrent` ends in flight. A strategy that returns while that many ends
 * are in flight keeps its slot until its own end commits (memory stays bounded under a burst).
 */
/**
 * Ends in flight per slot. With one, a drain of one-step episodes filled every slot with an end
 * waiting for its batch: the worker had nothing to run while PostgreSQL wrote the batch, and the
 * next batch could only start after that commit. With three, slots run the next episodes while
 * up to two batches of ends commit (docs/benchmarks.md, "Ends in flight"); four drained no faster
 * and wrote more WAL per item (larger batches move more rows to other pages).
 */
export const ENDS_PER_SLOT = 3;

export class EpisodeSlots {
  readonly #o: EpisodeSlotsOptions;
  readonly #queues = new Map<string, ActorQueue>();
  readonly #running = new Set<Promise<void>>();
  readonly #listeners = new Set<(actorId: string) => void>();

  constructor(options: EpisodeSlotsOptions) {
    this.#o = options;
  }

  /** Strategies of the actor running here now (what maxConcurrentEpisodes bounds). */
  runningCount(actorId: string): number {
    return this.#queues.get(actorId)?.running ?? 0;
  }

  /** The actor's episodes here whose strategy returned and whose end has not committed yet. */
  endingCount(actorId: string): number {
    return this.#queues.get(actorId)?.ending ?? 0;
  }

  /**
   * The actor's episodes here waiting for a slot: queued, or started ahead (their strategy waits;
   * they take the queue's room, not a slot).
   */
  queuedCount(actorId: string): number {
    const queue = this.#queues.get(actorId);
    return queue === undefined ? 0 : queue.length + queue.ahead.length;
  }

  /** The actor's episodes started ahead of a free slot here (claimed, `running`, waiting). */
  startedAheadCount(actorId: string): number {
    return this.#queues.get(actorId)?.ahead.length ?? 0;
  }

  /** Queues an episode and starts what the actor's free slots allow. */
  push(actorId: string, entry: QueuedEpisode): void {
    const queue = this.#queue(actorId);
    if (entry.started !== undefined) {
      // Started already (see QueuedEpisode.started): a free slot now, else the next one.
      const free = queue.ahead.length === 0 && queue.running < this.#o.maxConcurrent(actorId);
      const gate = free ? undefined : new SlotGate();
      if (gate !== undefined) queue.ahead.push(gate);
      this.#start(actorId, queue, entry, gate);
      return;
    }
    queue.push(entry);
    this.#pump(actorId);
  }

  /** Ids of the actor's episodes in memory here: queued or running. */
  heldIds(actorId: string): string[] {
    return this.#queues.get(actorId)?.heldIds() ?? [];
  }

  /** Actors with episodes waiting in memory. */
  queuedActorIds(): string[] {
    return [...this.#queues]
      .filter(([, queue]) => queue.length > 0 || queue.ahead.length > 0)
      .map(([actorId]) => actorId);
  }

  /**
   * Empties one actor's queue (it may no longer run here); running episodes are not affected.
   * Its episodes started ahead and still waiting get no slot here: their runner puts them back to
   * pending at once (claim released, owned by a trigger request again), for any node where the
   * actor may run; their runs settle `unstarted`.
   */
  takeQueued(actorId: string): QueuedEpisode[] {
    const queue = this.#queues.get(actorId);
    if (queue === undefined) return [];
    for (const gate of queue.ahead.splice(0)) gate.interrupt();
    return queue.takeAll();
  }

  /** Removes the oldest queued episode that may be shed (never a recovered one). */
  shedOldest(actorId: string): QueuedEpisode | undefined {
    return this.#queues.get(actorId)?.shedOldest();
  }

  /**
   * Empties every queue (the node is stopping); running episodes are not affected, nor are those
   * started ahead: they are started, so as slots free during the drain each runs its first step
   * (their strategies are short, see StartAheadEstimate) and a stop waits for them like the rest.
   */
  takeAllQueued(): QueuedEpisode[] {
    return [...this.#queues.values()].flatMap((queue) => queue.takeAll());
  }

  /** Settles when every episode running or ending now has ended (its end committed or failed). */
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

  /**
   * Called after a slot was freed (a strategy returned, or an episode ended) and reused if the
   * queue had an episode waiting.
   */
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

  /**
   * Free slots go first to the episodes started ahead (oldest first), then to queued episodes;
   * then as many queued episodes as the actor's estimate allows are started ahead.
   */
  #pump(actorId: string): void {
    const queue = this.#queues.get(actorId);
    if (queue === undefined) return;
    const max = this.#o.maxConcurrent(actorId);
    while (queue.running < max) {
      const gate = queue.ahead.shift();
      if (gate === undefined) break;
      queue.running += 1;
      gate.grant();
    }
    // Draining: the episodes started ahead still get the slots that free (they are started; each
    // runs its first step), nothing else starts.
    if (this.#o.isDraining()) return;
    while (queue.running < max) {
      const entry = queue.shift();
      if (entry === undefined) return;
      this.#start(actorId, queue, entry, undefined);
    }
    while (queue.ahead.length < queue.estimate.aheadFor(max)) {
      const entry = queue.shift();
      if (entry === undefined) return;
      const gate = new SlotGate();
      queue.ahead.push(gate);
      this.#start(actorId, queue, entry, gate);
    }
  }

  /** `gate`: started ahead of a free slot; its strategy waits for the gate's grant. */
  #start(
    actorId: string,
    queue: ActorQueue,
    entry: QueuedEpisode,
    gate: SlotGate | undefined,
  ): void {
    if (gate === undefined) queue.running += 1;
    queue.runningIds.add(entry.episode.id);
    const askedAt = performance.now();
    let strategyAt: number | undefined;
    let ending = false;
    const running = (answer: SlotAnswer): SlotAnswer => {
      if (answer === "run") strategyAt = performance.now();
      return answer;
    };
    // Answered at once when the episode holds a slot (no promise, no wait on the claim's signal).
    const beforeStrategy = (): SlotAnswer | Promise<SlotAnswer> => {
      queue.estimate.noteStart(performance.now() - askedAt);
      if (gate === undefined || gate.granted) return running("run");
      return gate.wait().then(running);
    };
    const strategyReturned = () => {
      if (strategyAt !== undefined) queue.estimate.noteRun(performance.now() - strategyAt);
      // At most ENDS_PER_SLOT x maxConcurrent ends in flight per actor: past that, the slot is
      // kept until the end commits, as before pipelining.
      const endsPerSlot = this.#o.endsPerSlot ?? ENDS_PER_SLOT;
      if (ending || queue.ending >= endsPerSlot * this.#o.maxConcurrent(actorId)) return;
      ending = true;
      queue.running -= 1;
      queue.ending += 1;
      this.#freed(actorId);
    };
    const run = this.#o.runner
      .run(entry.episode, {
        recovered: entry.recovered,
        resume: entry.resume,
        ...(entry.triggerRequestId === undefined
          ? {}
          : { triggerRequestId: entry.triggerRequestId }),
        ...(entry.started === undefined ? {} : { started: entry.started }),
        beforeStrategy,
        onStrategyReturned: strategyReturned,
      })
      .catch((error: unknown): QueuedEpisodeResult => ({ kind: "error", error }))
      .then((result) => {
        if (gate !== undefined && !gate.granted) {
          // Started ahead and never given a slot (not startable, its claim lost, or its actor may
          // no longer run here): it held none.
          const waiting = queue.ahead.indexOf(gate);
          if (waiting >= 0) queue.ahead.splice(waiting, 1);
        } else if (ending) queue.ending -= 1;
        else queue.running -= 1;
        queue.runningIds.delete(entry.episode.id);
        entry.settle(result);
        this.#freed(actorId);
      })
      .finally(() => this.#running.delete(run));
    this.#running.add(run);
  }

  /** A slot or an end's room freed: start what waits, then tell the backlog and the poller. */
  #freed(actorId: string): void {
    this.#pump(actorId);
    for (const listener of [...this.#listeners]) listener(actorId);
  }
}
