import type { Logger, Telemetry, TelemetryEventName, TelemetryMetadata } from "../telemetry/index";
import type { Bus } from "./types";

/**
 * Bus topics for what happens to episodes, actors, breakers, findings and workflows between
 * "fired" and "finished" (issue 20, Cyclium's own topics). Each is published once per occurrence,
 * by the node where it happened, and emitted as the telemetry event `cyclium.<topic>` (so also a
 * Prometheus counter `cyclium_<topic>_total`).
 */
export const LIFECYCLE_TOPICS = {
  /** An episode waits in its actor's queue on this node (every slot busy). */
  episodeQueued: "episode.queued",
  /** A fire refused by a full queue under `episodeOverflow: 'drop'`: no episode exists. */
  episodeDropped: "episode.dropped",
  /** An expectation's trigger (event, schedule, poll or manual) created an episode. */
  expectationTriggered: "expectation.triggered",
  /** An actor's queue was full when an episode arrived (`drop` or `shed_oldest` applied). */
  actorOverflow: "actor.overflow",
  /** An open circuit breaker refused a trigger. */
  circuitBreakerRejected: "circuit_breaker.rejected",
  findingRaised: "finding.raised",
  findingCleared: "finding.cleared",
  /** Cleared by the expiry sweep (its `ttlSeconds` ran out). */
  findingExpired: "finding.expired",
  workflowStarted: "workflow.started",
  workflowCompleted: "workflow.completed",
  workflowFailed: "workflow.failed",
} as const;

export type LifecycleTopic = (typeof LIFECYCLE_TOPICS)[keyof typeof LIFECYCLE_TOPICS];

/** A flat payload: ids and names, never results, so it stays inline in a NOTIFY. */
export type LifecyclePayload = TelemetryMetadata;

export interface AnnounceOptions {
  bus?: Pick<Bus, "publish"> | undefined;
  telemetry?: Telemetry | undefined;
  logger: Logger;
}

/**
 * Emits `cyclium.<topic>` and publishes `topic` with the same payload. The bus publish is not
 * awaited by the caller's outcome: a bus failure is logged, never turned into a failed fire.
 */
export function announce(
  options: AnnounceOptions,
  topic: LifecycleTopic,
  payload: LifecyclePayload,
): Promise<void> {
  const event: TelemetryEventName = `cyclium.${topic}`;
  options.telemetry?.emit(event, { count: 1 }, payload);
  if (options.bus === undefined) return Promise.resolve();
  return options.bus.publish(topic, payload).then(
    () => undefined,
    (err: unknown) => options.logger.warn({ err, topic }, "could not publish a lifecycle event"),
  );
}
