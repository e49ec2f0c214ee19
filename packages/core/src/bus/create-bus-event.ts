import { randomUUID } from "node:crypto";
import { ALL_TOPICS, type BusEvent } from "./types";

/** `cyclium_bus_events.topic` is VARCHAR(255). */
const MAX_TOPIC_LENGTH = 255;

/**
 * Stamps an event with its cluster-wide identity. Called exactly once per publish, on the
 * publishing node, so no receiver ever invents an id of its own.
 */
export function createBusEvent<P>(topic: string, payload: P, source?: string): BusEvent<P> {
  assertPublishableTopic(topic);
  const event: BusEvent<P> = {
    id: randomUUID(),
    topic,
    payload,
    publishedAt: new Date().toISOString(),
  };
  if (source !== undefined) event.source = source;
  return event;
}

function assertPublishableTopic(topic: string): void {
  if (typeof topic !== "string" || topic.length === 0) {
    throw new TypeError("bus topic must be a non-empty string");
  }
  if (topic === ALL_TOPICS) {
    throw new TypeError(`"${ALL_TOPICS}" is a subscription wildcard and cannot be published to`);
  }
  if (topic.length > MAX_TOPIC_LENGTH) {
    throw new TypeError(`bus topic is longer than ${MAX_TOPIC_LENGTH} characters`);
  }
}
