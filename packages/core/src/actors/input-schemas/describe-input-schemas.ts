import { z } from "zod";
import type { ActorDefinition, ActorSource } from "../actor-definition";
import { exampleFromJsonSchema } from "./example-input";

/** What the console's Fire form needs to know about one expectation's input. */
export interface ExpectationInputSchema {
  actorId: string;
  expectationId: string;
  source: ActorSource;
  /**
   * The input's JSON Schema (draft 2020-12, from zod's `toJSONSchema`, input side), or null:
   * the expectation declares no schema (dynamic actors never do) or zod cannot express it.
   */
  jsonSchema: Record<string, unknown> | null;
  /** A payload built from the schema's defaults, examples and types; `{}` without a schema. */
  example: unknown;
  /** Why there is no schema, for the form's note. */
  note: string | null;
}

/**
 * Every expectation's input schema as JSON Schema, with an example payload. Compiled actors
 * carry their zod schema; dynamic actors (cyclium_agent_definitions) cannot (JSON in a table has
 * no zod), so theirs is null and the form offers raw JSON only.
 */
export function describeInputSchemas(actors: readonly ActorDefinition[]): ExpectationInputSchema[] {
  return actors.flatMap((actor) =>
    actor.expectations.map((expectation): ExpectationInputSchema => {
      const base = {
        actorId: actor.identifier,
        expectationId: expectation.id,
        source: actor.source,
      };
      if (expectation.input === undefined) {
        return {
          ...base,
          jsonSchema: null,
          example: {},
          note:
            actor.source === "dynamic"
              ? "A dynamic actor declares no input schema: any JSON object is accepted."
              : "This expectation declares no input schema: any JSON object is accepted.",
        };
      }
      try {
        // `unrepresentable: "any"`: a transform or a date becomes {} instead of throwing; the
        // server's zod parse still checks it.
        const jsonSchema = z.toJSONSchema(expectation.input, {
          io: "input",
          unrepresentable: "any",
        }) as Record<string, unknown>;
        return {
          ...base,
          jsonSchema,
          example: exampleFromJsonSchema(jsonSchema) ?? {},
          note: null,
        };
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return {
          ...base,
          jsonSchema: null,
          example: {},
          note: `Its input schema has no JSON Schema form (${why}); the server still validates it.`,
        };
      }
    }),
  );
}
