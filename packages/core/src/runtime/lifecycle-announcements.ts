import type { ActorDefinition } from "../actors/index";
import { announce, LIFECYCLE_TOPICS, type Bus, type LifecyclePayload } from "../bus/index";
import type { Episode } from "../episodes/index";
import type { Logger, Telemetry } from "../telemetry/index";

export interface LifecycleAnnouncementsOptions {
  bus?: Bus;
  telemetry: Telemetry;
  logger: Logger;
  /** Stamped on every payload as `node`. */
  nodeIdentity: string;
}

/**
 * The lifecycle events a node's actor host announces about its fires and queues (bus topic and
 * telemetry event at once, see LIFECYCLE_TOPICS), each stamped with the node. Not awaited: a bus
 * failure is logged, never turned into a failed fire.
 */
export class LifecycleAnnouncements {
  readonly #o: LifecycleAnnouncementsOptions;

  constructor(options: LifecycleAnnouncementsOptions) {
    this.#o = options;
  }

  /** A fire created the episode (here, or as a trigger request for a full node). */
  triggered(episode: Episode): void {
    this.#announce(LIFECYCLE_TOPICS.expectationTriggered, {
      episode_id: episode.id,
      actor_id: episode.actorId,
      expectation_id: episode.expectationId,
      trigger_type: episode.triggerType,
      dedupe_key: episode.dedupeKey,
    });
  }

  /** The episode waits in its actor's queue here; `queued`: how many wait now. */
  queued(episode: Episode, queued: number): void {
    this.#announce(LIFECYCLE_TOPICS.episodeQueued, {
      episode_id: episode.id,
      actor_id: episode.actorId,
      expectation_id: episode.expectationId,
      queued,
    });
  }

  /** An episode arrived at the actor's full queue. */
  overflowed(actor: ActorDefinition): void {
    this.#announce(LIFECYCLE_TOPICS.actorOverflow, {
      actor_id: actor.identifier,
      policy: actor.episodeOverflow,
      max_queued: actor.maxQueuedEpisodes ?? null,
    });
  }

  /** A fire refused by the actor's full queue: no episode exists. */
  dropped(fire: { actorId: string; expectationId: string; triggerType: string }): void {
    this.#announce(LIFECYCLE_TOPICS.episodeDropped, {
      actor_id: fire.actorId,
      expectation_id: fire.expectationId,
      trigger_type: fire.triggerType,
    });
  }

  #announce(
    topic: (typeof LIFECYCLE_TOPICS)[keyof typeof LIFECYCLE_TOPICS],
    payload: LifecyclePayload,
  ): void {
    const { bus, telemetry, logger, nodeIdentity } = this.#o;
    void announce({ bus, telemetry, logger }, topic, { ...payload, node: nodeIdentity });
  }
}
