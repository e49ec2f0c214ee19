import { z } from "zod";
import type { BusEvent } from "./types";

/** The channel every PostgreSQL bus of a cluster LISTENs on. */
export const BUS_CHANNEL = "cyclium_bus";

/**
 * PostgreSQL rejects NOTIFY payloads of 8000 bytes or more. Events whose JSON is larger than this
 * (a margin under the limit) are stored in cyclium_bus_events and the NOTIFY carries a reference.
 */
export const MAX_INLINE_EVENT_BYTES = 7900;

const ZWireEvent = z.object({
  id: z.string().min(1),
  topic: z.string().min(1),
  payload: z.unknown(),
  publishedAt: z.string(),
  source: z.string().optional(),
});

const ZWireRef = z.object({
  /** cyclium_bus_events.id, a BIGSERIAL, hence a string. */
  ref: z.union([z.string(), z.number()]).transform(String),
  topic: z.string().min(1),
});

export type WireMessage =
  | { kind: "inline"; event: BusEvent }
  | { kind: "ref"; ref: string; topic: string }
  /** Inline events one statement sent in one NOTIFY (episode ends): `{"batch":[event,...]}`. */
  | { kind: "batch"; events: BusEvent[] };

/** JSON of the whole event; undefined payloads travel as null, like any other JSON hop. */
export function serializeEvent(event: BusEvent): string {
  return JSON.stringify({ ...event, payload: event.payload ?? null });
}

export function encodeRef(ref: string, topic: string): string {
  return JSON.stringify({ ref, topic });
}

/** The bytes a batch of these serialized events takes on the wire (see encodeBatch). */
export const BATCH_OVERHEAD_BYTES = '{"batch":[]}'.length;

/**
 * Serialized events as one NOTIFY payload: one event alone stays a plain inline event (what a
 * listener of an earlier release understands), several become `{"batch":[...]}`. The caller keeps
 * the result under MAX_INLINE_EVENT_BYTES (BATCH_OVERHEAD_BYTES + the events + a comma between).
 */
export function encodeBatch(eventJsons: readonly string[]): string {
  return eventJsons.length === 1 ? (eventJsons[0] ?? "") : `{"batch":[${eventJsons.join(",")}]}`;
}

/**
 * Parses a NOTIFY payload from the bus channel. Returns undefined for anything that is not ours:
 * any session may pg_notify('cyclium_bus', ...), so input is validated rather than trusted.
 */
export function decodeWireMessage(text: string): WireMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Only a reference has `ref`: a failed safeParse builds an error per event, which a burst of
  // 100,000 inline events turned into tens of MB of garbage.
  if (typeof raw === "object" && raw !== null && "ref" in raw) {
    const ref = ZWireRef.safeParse(raw);
    if (ref.success) return { kind: "ref", ref: ref.data.ref, topic: ref.data.topic };
  }
  if (typeof raw === "object" && raw !== null && "batch" in raw && Array.isArray(raw.batch)) {
    // Each element is checked on its own: one malformed event does not drop its neighbours.
    const events = (raw.batch as unknown[])
      .map(parseEvent)
      .filter((event): event is BusEvent => event !== undefined);
    return events.length === 0 ? undefined : { kind: "batch", events };
  }
  const event = parseEvent(raw);
  return event === undefined ? undefined : { kind: "inline", event };
}

/** Validates an event envelope, inline or loaded from cyclium_bus_events.payload. */
export function parseEvent(raw: unknown): BusEvent | undefined {
  const result = ZWireEvent.safeParse(raw);
  if (!result.success) return undefined;
  const { source, ...rest } = result.data;
  const event: BusEvent = { ...rest, payload: rest.payload ?? null };
  if (source !== undefined) event.source = source;
  return event;
}
