import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleFromJsonSchema } from "./example-input";

const example = (schema: z.ZodType) =>
  exampleFromJsonSchema(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }));

describe("exampleFromJsonSchema", () => {
  it("builds an input the schema accepts from defaults, examples, enums and types", () => {
    const schema = z.object({
      resourceId: z.string().min(3),
      threshold: z.number().int().min(1).max(100).default(80),
      mode: z.enum(["warn", "page"]),
      region: z.string().meta({ examples: ["eu-west-1"] }),
      dryRun: z.boolean(),
      count: z.number().int().positive(),
      note: z.string().optional(),
    });
    const value = example(schema);
    expect(value).toEqual({
      resourceId: "xxx",
      threshold: 80,
      mode: "warn",
      region: "eu-west-1",
      dryRun: false,
      count: 1,
    });
    expect(schema.safeParse(value).success).toBe(true);
  });

  it("keeps an optional property that has a default, and leaves out the others", () => {
    expect(example(z.object({ a: z.string().optional(), b: z.number().default(2) }))).toEqual({
      b: 2,
    });
  });

  it("answers {} for an empty object and undefined for what it cannot read", () => {
    expect(example(z.object({}))).toEqual({});
    expect(exampleFromJsonSchema(null)).toBeUndefined();
  });
});
