/**
 * An example payload built from an expectation's input JSON Schema (as `z.toJSONSchema` writes
 * it): each property's `default`, else its first `examples` entry, else its first `enum` value,
 * else a value of its type that the usual constraints accept (a string of `minLength`, a number
 * at `minimum`). Optional properties without a default are left out, so the example is the
 * smallest input the schema accepts in the common cases; the server validates it anyway.
 */
export function exampleFromJsonSchema(schema: unknown, depth = 0): unknown {
  if (!isRecord(schema) || depth > 8) return undefined;
  if ("default" in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length > 0) {
    return exampleFromJsonSchema(variants[0], depth + 1);
  }
  const type = typeof schema.type === "string" ? schema.type : "";
  switch (type) {
    case "object":
      return exampleObject(schema, depth);
    case "array": {
      const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
      const item = exampleFromJsonSchema(schema.items, depth + 1);
      return Array.from({ length: Math.min(minItems, 3) }, () => item);
    }
    case "string":
      return exampleString(schema);
    case "integer":
    case "number":
      return exampleNumber(schema);
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return undefined;
  }
}

function exampleObject(schema: Record<string, unknown>, depth: number): Record<string, unknown> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const example: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const hasDefault = isRecord(property) && "default" in property;
    if (!required.has(name) && !hasDefault) continue;
    const value = exampleFromJsonSchema(property, depth + 1);
    if (value !== undefined) example[name] = value;
  }
  return example;
}

function exampleString(schema: Record<string, unknown>): string {
  switch (schema.format) {
    case "email":
      return "operator@example.com";
    case "uuid":
      return "00000000-0000-4000-8000-000000000000";
    case "date-time":
      return "2026-01-01T00:00:00.000Z";
    case "date":
      return "2026-01-01";
    case "uri":
    case "url":
      return "https://example.com";
    default:
      break;
  }
  const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
  return minLength > 0 ? "x".repeat(Math.min(minLength, 64)) : "";
}

function exampleNumber(schema: Record<string, unknown>): number {
  const minimum = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const exclusive =
    typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  // zod writes the safe-integer range as bounds of every int(): 0 is within it and reads better.
  if (exclusive !== undefined && exclusive >= 0) return Math.floor(exclusive) + 1;
  if (minimum !== undefined && minimum > 0) return minimum;
  const maximum = typeof schema.maximum === "number" ? schema.maximum : undefined;
  if (maximum !== undefined && maximum < 0) return maximum;
  return 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
