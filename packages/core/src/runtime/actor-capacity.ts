import type { ActorDefinition } from "../actors/index";

/** An actor's load on one node now: what its room for more episodes is computed from. */
export interface ActorLoad {
  /** Its limit here: the operator's override, else the definition's maxConcurrentEpisodes. */
  slots: number;
  /** Strategies running here. */
  running: number;
  /** Waiting here: in memory, plus this node's rows not yet taken into memory. */
  queued: number;
}

/**
 * No room for one more episode here: its queue holds `maxQueuedEpisodes` and every slot is busy.
 * The second half matters only without a queue (`maxQueuedEpisodes: 0`): an empty queue is then
 * "full", yet a free slot still takes the episode at once.
 */
export function queueFull(
  actor: Pick<ActorDefinition, "maxQueuedEpisodes">,
  load: ActorLoad,
): boolean {
  if (actor.maxQueuedEpisodes === undefined) return false;
  return load.queued >= actor.maxQueuedEpisodes && load.running + load.queued >= load.slots;
}

/**
 * Whether an arrival at a full queue is refused rather than let in. `shed_oldest` sheds a
 * waiting episode to make room; with no queue nothing waits, and running episodes are never
 * shed (they may be halfway through a side effect), so the arrival is dropped as under `drop`.
 */
export function dropsArrival(
  actor: Pick<ActorDefinition, "episodeOverflow" | "maxQueuedEpisodes">,
): boolean {
  return (
    actor.episodeOverflow === "drop" ||
    (actor.episodeOverflow === "shed_oldest" && actor.maxQueuedEpisodes === 0)
  );
}

/**
 * Requests a poller may claim for the actor now: its free slots, or with `requestPrefetch` its
 * free slots plus room for that many queued, never past maxQueuedEpisodes. A prefetching node
 * refills in waves (min(prefetch, slots) at a time): claiming one request each time an episode
 * ends would cost a statement per episode.
 */
export function freeCapacity(
  actor: Pick<ActorDefinition, "maxQueuedEpisodes">,
  load: ActorLoad,
  requestPrefetch: number,
): number {
  const { slots, running, queued } = load;
  const ahead = Math.max(0, requestPrefetch);
  let room = slots + ahead - running - queued;
  if (actor.maxQueuedEpisodes !== undefined) {
    room = Math.min(room, slots - running + actor.maxQueuedEpisodes - queued);
  }
  const wave = ahead > 0 ? Math.min(ahead, slots) : 1;
  return room >= wave ? room : 0;
}
