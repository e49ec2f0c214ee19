/** A JSON Schema 2020-12 object, as OpenAPI 3.1 embeds it. */
export type TJsonSchema = Record<string, unknown>;
