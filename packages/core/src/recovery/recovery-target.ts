/**
 * The queue a sweeping node hands restarted episodes to. The runtime's ActorHost satisfies it:
 * the rows already name this node as their queue's owner (stamped in the sweep's transaction);
 * `takeOwned` runs those it may run under the actor's `maxConcurrentEpisodes`, never dropped or
 * shed, and hands the rest (actor not hosted here, or overridden to trigger_only / disabled) to
 * the cluster as trigger requests. Recovery depends on this small shape, not on the runtime.
 */
export interface RecoveryTarget {
  takeOwned(episodes: readonly { id: string; actorId: string }[]): Promise<void>;
  /** Re-owns the queues of gone nodes now (see adopt-abandoned-episodes.ts). */
  reconcileQueue?(): Promise<void>;
}
