// Public face of the bus: cluster-wide publish/subscribe on PostgreSQL LISTEN/NOTIFY, an
// in-process bus for unit tests, and the shared listening connection other concepts use.
export type { Bus, BusEvent, BusHandler, PublishOptions, Unsubscribe } from "./types";
export { ALL_TOPICS } from "./types";
export {
  announce,
  LIFECYCLE_TOPICS,
  type AnnounceOptions,
  type LifecyclePayload,
  type LifecycleTopic,
} from "./lifecycle-topics";
export { MemoryBus, type MemoryBusOptions } from "./memory-bus";
export { PgBus, type PgBusOptions, type PgBusCleanupOptions } from "./pg-bus";
export { PgListener, type PgListenerOptions, type NotificationHandler } from "./pg-listener";
export { notify, type NotifyOptions } from "./notify";
export {
  createBusPublisher,
  publishBusEvent,
  type BusPublisherOptions,
  type PublishBusEventOptions,
} from "./publish-bus-event";
export {
  BUS_CHANNEL,
  decodeWireMessage,
  MAX_INLINE_EVENT_BYTES,
  serializeEvent,
} from "./bus-wire-format";
export { deleteOldBusEvents, type DeleteOldBusEventsOptions } from "./delete-old-bus-events";
export type { Queryable } from "../db/index";
export { silentLogger, type Logger } from "../telemetry/index";
