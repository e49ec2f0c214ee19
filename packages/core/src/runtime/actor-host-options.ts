import type { ActorRegistry } from "../actors/index";
import type { Bus } from "../bus/index";
import type { WorkClaims } from "../claims/index";
import type { Connectable, Queryable } from "../db/index";
import type { Mode } from "../modes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import type { DeferredRunner, StartedEpisodeLease } from "../deferred/index";
import type { QueuedEpisodeResult } from "./actor-queue";
import type { QueueOptions } from "./queue-backlog";

export interface ActorHostOptions {
  /** A pool (episodes end in one transaction). */
  db: Queryable & Connectable;
  registry: ActorRegistry;
  modes: { effectiveMode(actorId: string): Mode; readonly nodeMode?: Mode };
  /** Operator-set limits (cyclium_concurrency_overrides); absent or undefined: the definition's. */
  limits?: { maxConcurrentEpisodes(actorId: string): number | undefined };
  claims: WorkClaims;
  leaseSeconds: number;
  nodeIdentity: string;
  stack: string | null;
  env: string | null;
  /** Writes trigger requests for trigger_only actors and hands the queue over on stop. */
  deferred?: DeferredRunner;
  bus?: Bus;
  /** Upper bound of the random wait before a triggered insert (SPEC section 3); 0 in tests. */
  jitterMs?: number;
  /**
   * Trigger requests a poller may claim per actor beyond its free slots (default 0): they wait in
   * this node's queue and start the moment a slot frees, instead of after another claim round
   * trip, as graphile-worker's localQueue does: 192 took the bench's drain from 0.63 commits per
   * episode to 0.17 (docs/benchmarks.md, "Batched writes and prefetch"). Requests held here are
   * released on stop, and by other nodes when this one dies.
   */
  requestPrefetch?: number;
  /** Ends in flight per slot (EpisodeSlots; default ENDS_PER_SLOT). */
  endsPerSlot?: number;
  /** The queue's memory bound and reconcile rhythm (see queue-backlog.ts). */
  queue?: QueueOptions;
  logger: Logger;
  telemetry: Telemetry;
}

export interface EnqueueOptions {
  recovered?: boolean;
  resume?: unknown;
  /** The poller's request, released back to pending if the episode never starts here. */
  triggerRequestId?: string;
  /** The row carries `queued_by` = this node (see QueuedEpisode.owned). */
  owned?: boolean;
  /** Started here already under its own lease (see QueuedEpisode.started). */
  started?: StartedEpisodeLease;
  /** Orders the local queue (QueuedEpisode.priority); default the expectation's, else 0. */
  priority?: number;
}

/**
 * An episode handed to the queue here, or why not: `dropped` when the actor's queue is full and
 * its overflow policy drops arrivals, `stopping` once the host no longer takes work.
 */
export type QueueResult =
  | { kind: "queued"; settled: Promise<QueuedEpisodeResult> }
  | { kind: "dropped" | "unknown_actor" | "stopping" };

/** enqueueEpisode reads the row first: it may be gone or already past pending. */
export type EnqueueResult = QueueResult | { kind: "not_found" | "not_pending" };
