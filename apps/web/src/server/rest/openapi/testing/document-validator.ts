// Checks an answer against the OpenAPI document: its status must be one the operation lists, and
// its JSON body must validate against that response's schema (ajv, JSON Schema 2020-12, the
// dialect of OpenAPI 3.1, with the `date-time` etc. formats checked).
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats, { type FormatsPlugin } from "ajv-formats";
import type { TJsonSchema } from "../openapi-types";

const DOCUMENT_ID = "https://cyclium.invalid/openapi.json";

export interface TDocumentOperation {
  operationId: string;
  method: string;
  path: string;
  responses: Record<string, TJsonSchema>;
}

export interface TCheckedAnswer {
  status: number;
  body: unknown;
}

export function createDocumentValidator(document: TJsonSchema) {
  // `strict: false`: the schemas sit under `components`, a keyword JSON Schema does not know.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  // A CommonJS module: its plugin is `default` of module.exports.
  (ajvFormats as unknown as { default: FormatsPlugin }).default(ajv);
  const components = document.components as Record<string, Record<string, TJsonSchema>>;
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: components.schemas } });

  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const validatorOf = (schema: TJsonSchema) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (validate === undefined) {
      const ref = schema.$ref;
      validate = ajv.compile(typeof ref === "string" ? { $ref: `${DOCUMENT_ID}${ref}` } : schema);
      compiled.set(key, validate);
    }
    return validate;
  };

  const operations = new Map<string, TDocumentOperation>();
  for (const [path, item] of Object.entries(document.paths as Record<string, TJsonSchema>)) {
    for (const [method, operation] of Object.entries(item as Record<string, TJsonSchema>)) {
      const { operationId, responses } = operation as unknown as TDocumentOperation;
      operations.set(operationId, { operationId, method, path, responses });
    }
  }

  function responseOf(operation: TDocumentOperation, status: number): TJsonSchema | undefined {
    const response = operation.responses[String(status)];
    if (response === undefined) return undefined;
    const ref = response.$ref;
    if (typeof ref !== "string") return response;
    return components.responses![ref.replace("#/components/responses/", "")];
  }

  return {
    operations,
    /** Throws, naming the operation, unless the answer is one the document describes. */
    async check(operationId: string, response: Response): Promise<TCheckedAnswer> {
      const operation = operations.get(operationId);
      if (operation === undefined) throw new Error(`No operation ${operationId} in the document`);
      const text = await response.text();
      const body: unknown = text === "" ? undefined : JSON.parse(text);
      const where = `${operation.method.toUpperCase()} ${operation.path} (${operationId}) answered ${response.status} ${text.slice(0, 500)}`;
      const described = responseOf(operation, response.status);
      if (described === undefined) throw new Error(`${where}: status not in the document`);
      const content = described.content as Record<string, { schema: TJsonSchema }> | undefined;
      const schema = content?.["application/json"]?.schema;
      if (schema === undefined) throw new Error(`${where}: the document gives no JSON schema`);
      const validate = validatorOf(schema);
      if (!validate(body)) {
        throw new Error(
          `${where}: does not match the document: ${ajv.errorsText(validate.errors)}`,
        );
      }
      // Every header the document promises on this answer (x-request-id; Retry-After on 429).
      for (const name of Object.keys((described.headers as TJsonSchema | undefined) ?? {})) {
        if (!response.headers.has(name)) throw new Error(`${where}: no ${name} header`);
      }
      return { status: response.status, body };
    },
  };
}
