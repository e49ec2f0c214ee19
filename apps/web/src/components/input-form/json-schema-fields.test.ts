import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkFields, formFieldsOf, valueFromText } from "./json-schema-fields";

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input" });

describe("formFieldsOf", () => {
  it("reads one field per property of a flat object schema", () => {
    const fields = formFieldsOf(
      jsonSchema(
        z.object({
          resourceId: z.string().min(1).describe("Which resource"),
          percent: z.number().int().min(1).max(100).default(80),
          mode: z.enum(["warn", "page"]),
          dryRun: z.boolean().optional(),
        }),
      ),
    );
    expect(fields?.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["resourceId", "string", true],
      ["percent", "integer", false],
      ["mode", "enum", true],
      ["dryRun", "boolean", false],
    ]);
    expect(fields?.[0]?.description).toBe("Which resource");
    expect(fields?.[1]).toMatchObject({ minimum: 1, maximum: 100 });
  });

  it("gives up (raw JSON only) on nested objects and arrays", () => {
    expect(formFieldsOf(jsonSchema(z.object({ a: z.object({ b: z.string() }) })))).toBeNull();
    expect(formFieldsOf(jsonSchema(z.object({ a: z.array(z.string()) })))).toBeNull();
    expect(formFieldsOf(null)).toBeNull();
  });
});

describe("checkFields", () => {
  const fields =
    formFieldsOf(
      jsonSchema(
        z.object({
          resourceId: z.string().min(1),
          percent: z.number().int().min(1).max(100).default(80),
          mode: z.enum(["warn", "page"]).optional(),
        }),
      ),
    ) ?? [];

  it("passes what the zod schema passes", () => {
    expect(checkFields(fields, { resourceId: "db", percent: 80 })).toEqual({});
    expect(checkFields(fields, { resourceId: "db" })).toEqual({});
  });

  it("names each field the zod schema would refuse", () => {
    expect(checkFields(fields, { resourceId: "", percent: 500, mode: "loud" })).toEqual({
      resourceId: "Required: must not be empty.",
      percent: "Must be at most 100.",
      mode: "Must be one of warn, page.",
    });
    expect(checkFields(fields, { percent: 2.5 })).toEqual({
      resourceId: "Required.",
      percent: "Must be a whole number.",
    });
    expect(checkFields(fields, { resourceId: "x", percent: "abc" })).toEqual({
      percent: "Must be a number.",
    });
  });

  it("turns a number field's text into a number, and keeps what is not one", () => {
    const percent = fields[1]!;
    expect(valueFromText(percent, "42")).toBe(42);
    expect(valueFromText(percent, "4x")).toBe("4x");
    expect(valueFromText(percent, "")).toBeUndefined();
  });
});
