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
  { kind: "inline"; event: BusEvent } | { kind: "ref"; ref: string; topic: string };

/** JSON of the whole event; undefined payloads travel as null, like any other JSON hop. */
export function serializeEvent(event: BusEvent): string {
  return JSON.stringify({ ...event, payload: event.payload ?? null });
}

export function encodeRef(ref: string, topic: string): string {
  return JSON.stringify({ ref, topic });
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
