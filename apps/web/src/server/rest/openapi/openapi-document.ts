// The REST API's OpenAPI 3.1 document (issue 29), built from the operation table and the zod
// schemas the endpoints use. Served at `GET /api/v1/openapi.json`; `docs/openapi.json` is a copy
// (`pnpm --filter @cyclium/web openapi:write`) that a test keeps fresh.
import { ANSWER_HEADERS, BEARER, ERROR_ANSWERS, openApiComponents } from "./openapi-components";
import type { TJsonSchema } from "./openapi-types";
import { REST_OPERATIONS, type TRestOperation } from "./rest-operations";

/** The two path families: ours, and Cloacina's (which the proxy rewrites to ours). */
export const REST_PREFIXES = [
  { prefix: "/api/v1", operationIdPrefix: "" },
  { prefix: "/v1", operationIdPrefix: "cloacina" },
] as const;

/** `fireTrigger` at `/v1` is `cloacinaFireTrigger`. */
export function prefixedOperationId(idPrefix: string, operationId: string): string {
  return idPrefix === ""
    ? operationId
    : `${idPrefix}${operationId[0]!.toUpperCase()}${operationId.slice(1)}`;
}

export const OPENAPI_DOCUMENT_PATH = "/api/v1/openapi.json";

const DESCRIPTION = `The console's REST API: dynamic actors, triggers and episode signals, per tenant.

**Authentication.** \`Authorization: Bearer <API token>\`. A token has a role (viewer < operator < admin; each operation says the least it needs) and may be limited to some tenants: one addressing another tenant gets \`403 tenant_access_denied\` before its role is looked at.

**Tenants.** \`{t}\` is the env. \`public\` (Cloacina's clients' default) and \`default\` both name the unset env.

**Two prefixes.** Every operation is served at \`/api/v1/...\` and, for Cloacina's clients, at \`/v1/...\` (the same handler; operation ids prefixed \`cloacina\`).

**Answers.** JSON with snake_case keys (a dynamic actor keeps its definition's camelCase fields), never cached, each with \`x-request-id\`. Errors are \`{error, code}\` (\`RestError\`); the trigger endpoints use Cloacina's codes. A method a path does not serve is \`405 method_not_allowed\` with \`Allow\`; an unknown path under \`/api/v1\` is \`404 not_found\`.

**Where Cloacina's shapes still differ** (its OpenAPI 0.10.0): \`GET .../triggers/{name}/interface\` answers \`parameters\` (the context a fire carries) where Cloacina answers a packaged workflow's \`kind\`, \`name\` and \`slots\`; interval schedules are ours (a \`trigger\` item with \`kind: "interval"\`); answers carry our fields beside Cloacina's; a fire whose primary workflow fails to start fails the call (409 or 500) instead of answering \`fired: 0\`. docs/api.md lists every difference.`;

export function buildOpenApiDocument(): TJsonSchema {
  const paths: Record<string, Record<string, TJsonSchema>> = {
    [OPENAPI_DOCUMENT_PATH]: {
      get: {
        operationId: "getOpenApiDocument",
        tags: ["document"],
        summary: "This document",
        description: "Public: no credential needed.",
        security: [],
        responses: {
          "200": {
            description: "The OpenAPI 3.1 document.",
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
    },
  };
  for (const { prefix, operationIdPrefix } of REST_PREFIXES) {
    for (const operation of REST_OPERATIONS) {
      const path = `${prefix}${operation.path}`;
      paths[path] ??= {};
      paths[path][operation.method] = operationObject(operation, operationIdPrefix);
    }
  }
  return {
    openapi: "3.1.1",
    info: {
      title: "Cyclium console REST API",
      version: "1.0.0",
      description: DESCRIPTION,
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: [
      {
        url: "{origin}",
        description: "The console (Cloacina's clients: the same origin).",
        variables: { origin: { default: "http://localhost:3000" } },
      },
    ],
    security: [{ [BEARER]: [] }],
    tags: [
      { name: "actors", description: "Dynamic actors: actors defined in the database." },
      { name: "triggers", description: "Cron, interval and poll triggers (Cloacina's API)." },
      {
        name: "episodes",
        description:
          "Episodes: why one waits (SPEC section 16), signals to waiting ones (section 17).",
      },
      { name: "document", description: "This description of the API." },
    ],
    paths,
    components: openApiComponents(),
  };
}

function operationObject(operation: TRestOperation, idPrefix: string): TJsonSchema {
  const operationId = prefixedOperationId(idPrefix, operation.operationId);
  const responses: Record<string, unknown> = {
    [String(operation.ok.status)]: {
      description: operation.ok.description,
      headers: ANSWER_HEADERS,
      content: {
        "application/json": { schema: { $ref: `#/components/schemas/${operation.ok.schema}` } },
      },
    },
  };
  for (const status of operation.errors) {
    responses[String(status)] = { $ref: `#/components/responses/${ERROR_ANSWERS[status].name}` };
  }
  return {
    operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: `${operation.description}\n\nNeeds the **${operation.role}** role.`,
    parameters: operation.parameters.map((name) => ({ $ref: `#/components/parameters/${name}` })),
    ...(operation.body === undefined
      ? {}
      : {
          requestBody: {
            required: operation.bodyOptional !== true,
            content: {
              "application/json": { schema: { $ref: `#/components/schemas/${operation.body}` } },
            },
          },
        }),
    responses,
    "x-cyclium-role": operation.role,
  };
}
