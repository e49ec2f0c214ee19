/**
 * What a core result becomes on the wire: JSON has no Date, so each Date turns into its ISO
 * string, exactly as JSON.stringify would send it. Core's read models return Dates (its row
 * types); procedures map them here so a server-side caller (createCaller, RSC prefetch) sees the
 * same values as the browser.
 */
export type TWire<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? TWire<U>[]
    : T extends object
      ? { [K in keyof T]: TWire<T[K]> }
      : T;

export function toWire<T>(value: T): TWire<T> {
  return convert(value) as TWire<T>;
}

function convert(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(convert);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, convert(item)]));
}
