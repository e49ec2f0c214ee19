/**
 * Where a restarted episode goes on the sweeping node. The runtime's ActorHost satisfies it:
 * `enqueueEpisode(id, { recovered: true })` puts the episode on the live actor's queue, where it
 * waits for a slot under `maxConcurrentEpisodes` like any other episode and is never dropped or
 * shed. Recovery depends on this small shape, not on the runtime, so it can be tested alone.
 */
export interface RecoveryTarget {
  hasActor(actorId: string): boolean;
  enqueueEpisode(
    episodeId: string,
    options: { recovered: true },
  ): Promise<{ ok: true } | { ok: false; reason: string }>;
}

/** Runs a restarted episode whose actor is not live on this node (e.g. a dynamic actor). */
export type RecoveryFallbackRunner = (episode: {
  id: string;
  actorId: string;
  expectationId: string;
}) => unknown;
