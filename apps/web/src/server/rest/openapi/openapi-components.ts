// `components` of the OpenAPI document: schemas (from zod), parameters, the error answers and the
// Bearer scheme, each described once and referenced by every operation.
import { ZActorAnswer, ZActorListAnswer, ZActorView } from "../actor-answers.schema";
import { ZActorBody, ZActorParams, ZActorPatchBody } from "../actor-endpoints.schema";
import { ZRestError } from "../rest-response";
import {
  ZEpisodeParams,
  ZEpisodeSignalParams,
  ZEpisodeWaitAnswer,
  ZSignalAnswer,
  ZSignalBody,
} from "../episode-endpoints.schema";
import {
  ZExecutionItem,
  ZFireTriggerAnswer,
  ZFiringItem,
  ZInspectTriggerAnswer,
  ZListTriggersAnswer,
  ZPauseTriggerAnswer,
  ZTriggerInterfaceAnswer,
  ZTriggerItem,
} from "../trigger-answers.schema";
import {
  ZFireTriggerBody,
  ZInspectTriggerQuery,
  ZListTriggersQuery,
  ZTenantParams,
  ZTriggerParams,
} from "../trigger-endpoints.schema";
import { componentSchemas, inlineSchema } from "./component-schemas";
import type { TJsonSchema } from "./openapi-types";
import type { TErrorStatus } from "./rest-operations";

export const BEARER = "bearerAuth";

export function openApiComponents(): Record<string, Record<string, TJsonSchema>> {
  return {
    securitySchemes: {
      [BEARER]: {
        type: "http",
        scheme: "bearer",
        description:
          "An API token (`cyc_…`) an admin makes in the console under **Admin**. It carries a role (viewer, operator, admin) and may be limited to some tenants. The console's own pages use their session cookie instead.",
      },
    },
    schemas: {
      ...componentSchemas(
        [
          { id: "ActorDefinitionInput", schema: ZActorBody },
          { id: "ActorDefinitionChanges", schema: ZActorPatchBody },
          { id: "FireTriggerBody", schema: ZFireTriggerBody },
          { id: "SignalBody", schema: ZSignalBody },
        ],
        "input",
      ),
      ...componentSchemas(
        [
          { id: "Actor", schema: ZActorView },
          { id: "ActorList", schema: ZActorListAnswer },
          { id: "ActorAnswer", schema: ZActorAnswer },
          { id: "TriggerItem", schema: ZTriggerItem },
          { id: "ExecutionItem", schema: ZExecutionItem },
          { id: "FiringItem", schema: ZFiringItem },
          { id: "TriggerList", schema: ZListTriggersAnswer },
          { id: "TriggerInspection", schema: ZInspectTriggerAnswer },
          { id: "TriggerFire", schema: ZFireTriggerAnswer },
          { id: "TriggerPauseState", schema: ZPauseTriggerAnswer },
          { id: "TriggerInterface", schema: ZTriggerInterfaceAnswer },
          { id: "EpisodeWait", schema: ZEpisodeWaitAnswer },
          { id: "SignalAnswer", schema: ZSignalAnswer },
          { id: "RestError", schema: ZRestError },
        ],
        "output",
      ),
    },
    parameters: {
      Tenant: pathParameter(
        "t",
        ZTenantParams.shape.t,
        "The tenant: an env, or `public` (Cloacina's default) or `default` for the unset env.",
      ),
      ActorName: pathParameter("name", ZActorParams.shape.name, "The dynamic actor's identifier."),
      TriggerName: pathParameter(
        "name",
        ZTriggerParams.shape.name,
        "A trigger's name, or its primary workflow's.",
      ),
      EpisodeId: pathParameter("id", ZEpisodeParams.shape.id, "The episode's id."),
      SignalName: pathParameter(
        "name",
        ZEpisodeSignalParams.shape.name,
        "A signal the episode's expectation declares (`signals: { name: schema }`).",
      ),
      Limit: queryParameter("limit", ZListTriggersQuery.shape.limit, "Page size."),
      Offset: queryParameter("offset", ZListTriggersQuery.shape.offset, "Items to skip."),
      Firings: queryParameter(
        "firings",
        ZInspectTriggerQuery.shape.firings,
        "How many of our `recent_firings` to include.",
      ),
    },
    headers: {
      RequestId: {
        description: "The caller's own `x-request-id` when it sent a sane one; else a new UUID.",
        schema: { type: "string" },
      },
      RetryAfter: {
        description: "Seconds until this address may try again.",
        schema: { type: "integer", minimum: 1 },
      },
    },
    responses: Object.fromEntries(
      Object.entries(ERROR_ANSWERS).map(([status, answer]) => [
        answer.name,
        errorResponse(answer.description, Number(status) === 429),
      ]),
    ),
  };
}

/** Each error status's `components.responses` entry; the body is always `RestError`. */
export const ERROR_ANSWERS: Record<TErrorStatus, { name: string; description: string }> = {
  400: {
    name: "BadRequest",
    description:
      "Invalid input; the message names the field. `invalid_input`, or Cloacina's `invalid_pagination` for a bad `limit` or `offset`.",
  },
  401: {
    name: "Unauthorized",
    description:
      "No valid credential: `unauthenticated` (`unauthorized` on the trigger endpoints, Cloacina's name).",
  },
  403: {
    name: "Forbidden",
    description:
      "`tenant_access_denied` (a token limited to other tenants), `forbidden` (the role is too low) or `cross_origin` (a browser write from another site).",
  },
  404: {
    name: "NotFound",
    description: "`not_found` (`trigger_not_found` on the trigger endpoints).",
  },
  409: {
    name: "Conflict",
    description: "`conflict`: the message says with what.",
  },
  429: {
    name: "TooManyRefusals",
    description:
      "`too_many_refusals`: this address was refused too often; calls without a valid credential wait `Retry-After` seconds.",
  },
  500: {
    name: "InternalError",
    description: "`internal` (`internal_error` on the trigger endpoints): logged, never detailed.",
  },
  503: {
    name: "Unavailable",
    description: "`shutdown`: the console's Cyclium node is not running (yet).",
  },
};

/** Every answer's headers. */
export const ANSWER_HEADERS = { "x-request-id": { $ref: "#/components/headers/RequestId" } };

function errorResponse(description: string, retryAfter: boolean): TJsonSchema {
  return {
    description,
    headers: {
      ...ANSWER_HEADERS,
      ...(retryAfter ? { "retry-after": { $ref: "#/components/headers/RetryAfter" } } : {}),
    },
    content: { "application/json": { schema: { $ref: "#/components/schemas/RestError" } } },
  };
}

function pathParameter(name: string, schema: Parameters<typeof inlineSchema>[0], text: string) {
  return {
    name,
    in: "path",
    required: true,
    description: text,
    schema: inlineSchema(schema, "input"),
  };
}

function queryParameter(name: string, schema: Parameters<typeof inlineSchema>[0], text: string) {
  return {
    name,
    in: "query",
    required: false,
    description: text,
    schema: inlineSchema(schema, "input"),
  };
}
