/**
 * The Fire form's fields, read from an expectation's input JSON Schema (what `z.toJSONSchema`
 * writes, served by actors.inputSchemas): a flat object of strings, numbers, integers, booleans
 * and enums becomes one field each; anything else (nested objects, arrays, unions) is edited as
 * raw JSON only. The checks here are the JSON Schema keywords those fields carry, so a mistake
 * is shown beside its field before anything is sent; the server checks the zod schema again.
 */
export type TFieldKind = "string" | "number" | "integer" | "boolean" | "enum";

export interface TFormField {
  name: string;
  kind: TFieldKind;
  required: boolean;
  description: string | null;
  options: readonly (string | number)[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

type TSchema = Record<string, unknown>;

function isRecord(value: unknown): value is TSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

function fieldOf(name: string, schema: unknown, required: boolean): TFormField | null {
  if (!isRecord(schema)) return null;
  const description = typeof schema.description === "string" ? schema.description : null;
  const base = { name, required, description };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const options = schema.enum.filter(
      (option): option is string | number =>
        typeof option === "string" || typeof option === "number",
    );
    return options.length === schema.enum.length ? { ...base, kind: "enum", options } : null;
  }
  switch (schema.type) {
    case "string": {
      const field: TFormField = { ...base, kind: "string", options: [] };
      const minLength = num(schema.minLength);
      const maxLength = num(schema.maxLength);
      if (minLength !== undefined) field.minLength = minLength;
      if (maxLength !== undefined) field.maxLength = maxLength;
      if (typeof schema.pattern === "string") field.pattern = schema.pattern;
      return field;
    }
    case "number":
    case "integer": {
      const field: TFormField = { ...base, kind: schema.type, options: [] };
      const bounds = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const;
      for (const bound of bounds) {
        const value = num(schema[bound]);
        // zod writes every int() with the safe-integer range: not worth a message.
        if (value !== undefined && Math.abs(value) < Number.MAX_SAFE_INTEGER) field[bound] = value;
      }
      return field;
    }
    case "boolean":
      return { ...base, kind: "boolean", options: [] };
    default:
      return null;
  }
}

/** One field per property of a flat object schema; null when the form cannot show it. */
export function formFieldsOf(jsonSchema: unknown): TFormField[] | null {
  if (!isRecord(jsonSchema) || jsonSchema.type !== "object") return null;
  const properties = isRecord(jsonSchema.properties) ? jsonSchema.properties : {};
  const required = new Set(
    Array.isArray(jsonSchema.required) ? jsonSchema.required.map(String) : [],
  );
  const fields: TFormField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const field = fieldOf(name, property, required.has(name));
    if (field === null) return null;
    fields.push(field);
  }
  return fields;
}

function checkNumber(field: TFormField, value: unknown): string | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return "Must be a number.";
  if (field.kind === "integer" && !Number.isInteger(value)) return "Must be a whole number.";
  if (field.minimum !== undefined && value < field.minimum)
    return `Must be at least ${field.minimum}.`;
  if (field.maximum !== undefined && value > field.maximum)
    return `Must be at most ${field.maximum}.`;
  if (field.exclusiveMinimum !== undefined && value <= field.exclusiveMinimum) {
    return `Must be more than ${field.exclusiveMinimum}.`;
  }
  if (field.exclusiveMaximum !== undefined && value >= field.exclusiveMaximum) {
    return `Must be less than ${field.exclusiveMaximum}.`;
  }
  return null;
}

function checkString(field: TFormField, value: unknown): string | null {
  if (typeof value !== "string") return "Must be text.";
  if (field.minLength !== undefined && value.length < field.minLength) {
    return field.minLength === 1
      ? "Required: must not be empty."
      : `At least ${field.minLength} characters.`;
  }
  if (field.maxLength !== undefined && value.length > field.maxLength) {
    return `At most ${field.maxLength} characters.`;
  }
  if (field.pattern !== undefined) {
    try {
      if (!new RegExp(field.pattern, "u").test(value)) return `Must match ${field.pattern}.`;
    } catch {
      // A pattern JavaScript cannot compile is left to the server's check.
    }
  }
  return null;
}

/** The message for one field's value, or null when it passes. */
export function checkField(field: TFormField, value: unknown): string | null {
  if (value === undefined) return field.required ? "Required." : null;
  switch (field.kind) {
    case "string":
      return checkString(field, value);
    case "number":
    case "integer":
      return checkNumber(field, value);
    case "boolean":
      return typeof value === "boolean" ? null : "Must be true or false.";
    case "enum":
      return field.options.includes(value as string | number)
        ? null
        : `Must be one of ${field.options.join(", ")}.`;
  }
}

/** Field name → message, for every field whose value does not pass. */
export function checkFields(
  fields: readonly TFormField[],
  input: Record<string, unknown>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const message = checkField(field, input[field.name]);
    if (message !== null) errors[field.name] = message;
  }
  return errors;
}

/**
 * The value a text box holds, as the input stores it: a number field's text becomes a number
 * when it reads as one (and stays text otherwise, so the check says what is wrong); an emptied
 * optional field is left out.
 */
export function valueFromText(field: TFormField, text: string): unknown {
  if (field.kind === "number" || field.kind === "integer") {
    if (text.trim() === "") return undefined;
    const parsed = Number(text);
    return Number.isNaN(parsed) ? text : parsed;
  }
  if (field.kind === "enum") {
    const option = field.options.find((candidate) => String(candidate) === text);
    return option ?? (text === "" ? undefined : text);
  }
  if (text === "" && !field.required) return undefined;
  return text;
}
