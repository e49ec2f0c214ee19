import type { Episode } from "../episodes/index";
import type { EpisodeRunResult } from "./local-runner";

/** How a queued episode ended up, from the host's point of view. */
export type QueuedEpisodeResult =
  | EpisodeRunResult
  /** The node stopped before a slot freed up: the episode is still pending (handed over). */
  | { status: "not_started" }
  /** Cancelled to make room (`episodeOverflow: 'shed_oldest'`). */
  | { status: "shed" };

export interface QueuedEpisode {
  episode: Episode;
  /** Recovered episodes are never dropped or shed (SPEC section 12). */
  recovered: boolean;
  resume: unknown;
  /** Set when a poller dispatched it: the request goes back to pending if it never starts. */
  triggerRequestId: string | undefined;
  settle: (result: QueuedEpisodeResult) => void;
}

/**
 * One actor's episodes on one node: a FIFO of those waiting for a slot (arrival order, never
 * dropped unless the actor's overflow policy says so) and the count of those running.
 */
export class ActorQueue {
  running = 0;
  #waiting: QueuedEpisode[] = [];

  get length(): number {
    return this.#waiting.length;
  }

  push(entry: QueuedEpisode): void {
    this.#waiting.push(entry);
  }

  shift(): QueuedEpisode | undefined {
    return this.#waiting.shift();
  }

  /** Removes and returns the oldest waiting episode that may be shed (not a recovered one). */
  shedOldest(): QueuedEpisode | undefined {
    const index = this.#waiting.findIndex((entry) => !entry.recovered);
    if (index < 0) return undefined;
    const [shed] = this.#waiting.splice(index, 1);
    return shed;
  }

  /** Empties the queue (the node is stopping). */
  takeAll(): QueuedEpisode[] {
    const all = this.#waiting;
    this.#waiting = [];
    return all;
  }
}
