import { createHash } from "node:crypto";
import { CycliumError } from "../errors/index";

/**
 * JSON with object keys sorted, so `{a, b}` and `{b, a}` serialise (and hash) the same on every
 * node. Apart from key order this is what JSON.stringify produces, which already matches RFC 8785
 * for strings and numbers (ECMAScript number formatting); keys sort by UTF-16 code units, as RFC
 * 8785 asks. `toJSON` is honoured (Dates become ISO strings), `undefined` members are dropped as
 * JSON.stringify drops them. Non-finite numbers, BigInts and cycles are rejected: they have no
 * single JSON form, and silently hashing them as `null` would merge distinct payloads.
 */
export function canonicalJson(value: unknown): string {
  return serialise(value, new Set());
}

/** SHA-256 (hex) of the canonical JSON of `value`. */
export function canonicalHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

function serialise(input: unknown, ancestors: Set<object>): string {
  const value = hasToJson(input) ? input.toJSON() : input;
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw invalid(`non-finite number ${value}`);
      return JSON.stringify(value);
    case "object":
      break;
    case "bigint":
    case "function":
    case "symbol":
    case "undefined":
      throw invalid(`a ${typeof value}`);
  }
  if (ancestors.has(value)) throw invalid("a circular reference");
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      // Like JSON.stringify: holes and undefined in arrays become null, keeping positions.
      return `[${value.map((item: unknown) => (item === undefined || typeof item === "function" ? "null" : serialise(item, ancestors))).join(",")}]`;
    }
    const members: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const member: unknown = (value as Record<string, unknown>)[key];
      if (member === undefined || typeof member === "function" || typeof member === "symbol") {
        continue;
      }
      members.push(`${JSON.stringify(key)}:${serialise(member, ancestors)}`);
    }
    return `{${members.join(",")}}`;
  } finally {
    ancestors.delete(value);
  }
}

function hasToJson(value: unknown): value is { toJSON(): unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  );
}

function invalid(what: string): CycliumError {
  return new CycliumError("invalid_input", `Cannot hash ${what} as canonical JSON.`);
}
