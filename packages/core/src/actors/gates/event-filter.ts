import type { TEventFilter } from "./event-gates-schema";

/** The value at a dot path of a payload; undefined when any segment is missing. */
export function valueAt(payload: unknown, path: string): unknown {
  let current: unknown = payload;
  for (const segment of path.split(".")) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** True when the payload passes every field of the filter (no filter passes everything). */
export function matchesFilter(payload: unknown, filter: TEventFilter | undefined): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(([path, expected]) => {
    const actual = valueAt(payload, path);
    if (expected !== null && typeof expected === "object")
      return expected.in.includes(actual as never);
    return actual === expected;
  });
}

/**
 * The subject an event is about, as a map key. Without `subjectKey` (or when the payload lacks
 * the field) every event shares one subject, so cooldown and debounce apply expectation-wide.
 */
export function subjectOf(payload: unknown, subjectKey: string | undefined): string {
  if (subjectKey === undefined) return "*";
  const value = valueAt(payload, subjectKey);
  return value === undefined ? "*" : JSON.stringify(value);
}
