import { performance } from "node:perf_hooks";
import type { Episode } from "../episodes/index";
import type { StartedEpisodeLease } from "../deferred/index";
import type { EpisodeRunResult } from "./episode-run-result";
import { nextInPriorityOrder } from "./local-queue-order";
import { StartAheadEstimate, type SlotGate } from "./start-ahead";

/** How a queued episode ended up, from the host's point of view. */
export type QueuedEpisodeResult =
  | EpisodeRunResult
  /** The node stopped before a slot freed up: the episode is still pending (handed over). */
  | { kind: "not_started" }
  /** Cancelled to make room (`episodeOverflow: 'shed_oldest'`). */
  | { kind: "shed" };

export interface QueuedEpisode {
  episode: Episode;
  /**
   * The row carries `queued_by` = this node: if the episode never starts here, the database
   * still knows whose it is (the node hands such rows over in one statement, or another node
   * adopts them). Unowned entries came from a trigger request or a caller's `enqueue`.
   */
  owned: boolean;
  /** Recovered episodes are never dropped or shed (SPEC section 12). */
  recovered: boolean;
  /**
   * Its fire's priority (SPEC section 16): the fire's own, its trigger request's claim priority,
   * else its expectation's default, else 0. Orders the queue (nextInPriorityOrder).
   */
  priority: number;
  resume: unknown;
  /** Set when a poller dispatched it: the request goes back to pending if it never starts. */
  triggerRequestId: string | undefined;
  /**
   * Started here already, under its own lease (the poller's startRequestedEpisodes): it never
   * waits in the queue. It runs at once when a slot is free, else it waits for one like an
   * episode started ahead (its lease renewed meanwhile), and gets the next slot that frees.
   */
  started?: StartedEpisodeLease | undefined;
  settle: (result: QueuedEpisodeResult) => void;
}

/**
 * One actor's episodes on one node: those waiting for a slot, taken higher priority first and
 * FIFO within one priority, with the deferred queue's ageing (nextInPriorityOrder; never dropped
 * unless the actor's overflow policy says so), the count of those whose strategy runs
 * (`running`, what maxConcurrentEpisodes bounds) and of those whose strategy has returned and
 * whose end statement has not committed yet (`ending`, see EpisodeSlots).
 */
export class ActorQueue {
  running = 0;
  ending = 0;
  /** Episodes started ahead of a free slot, oldest first, each waiting for a slot. */
  readonly ahead: SlotGate[] = [];
  readonly estimate = new StartAheadEstimate();
  /** Ids of the episodes started from this queue and not ended yet (ahead, running or ending). */
  readonly runningIds = new Set<string>();
  #waiting: (QueuedEpisode & { queuedAt: number })[] = [];
  /** Whether every waiting episode has the same priority: then the oldest is next (FIFO). */
  #mixed = false;

  /** `now`: the clock waiting is aged by (ms). */
  constructor(private readonly now: () => number = () => performance.now()) {}

  get length(): number {
    return this.#waiting.length;
  }

  push(entry: QueuedEpisode): void {
    const first = this.#waiting[0];
    if (first !== undefined && first.priority !== entry.priority) this.#mixed = true;
    this.#waiting.push({ ...entry, queuedAt: this.now() });
  }

  /** The episode a free slot takes next: higher priority first, FIFO within one (see above). */
  shift(): QueuedEpisode | undefined {
    if (!this.#mixed) return this.#waiting.shift();
    const index = nextInPriorityOrder(this.#waiting, this.now());
    const [next] = this.#waiting.splice(index, 1);
    if (this.#waiting.length === 0) this.#mixed = false;
    return next;
  }

  /** Removes and returns the oldest waiting episode that may be shed (not a recovered one). */
  shedOldest(): QueuedEpisode | undefined {
    const index = this.#waiting.findIndex((entry) => !entry.recovered);
    if (index < 0) return undefined;
    const [shed] = this.#waiting.splice(index, 1);
    return shed;
  }

  /** Ids of the waiting episodes and of those running or ending. */
  heldIds(): string[] {
    return [...this.#waiting.map((entry) => entry.episode.id), ...this.runningIds];
  }

  /** Empties the queue (the node is stopping). */
  takeAll(): QueuedEpisode[] {
    const all = this.#waiting;
    this.#waiting = [];
    this.#mixed = false;
    return all;
  }
}
