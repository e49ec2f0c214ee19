// REST v1 dynamic actor endpoints (SPEC section 13): `/api/v1/tenants/{t}/actors[/{name}[/enable|
// /disable]]`. Each authorizes (restEndpoint: reads for viewers, writes for admins), calls one
// core function inside `audited` with the console's action names, and answers the definition.
// `{t}` is the env the definitions belong to, as for triggers: a token limited to tenant `a` reads
// and writes `a`'s dynamic actors only (restEndpoint refuses other tenants), and only `a`'s nodes
// run them.
import {
  createAgentDefinition,
  getAgentDefinition,
  listAgentDefinitions,
  setAgentDefinitionEnabled,
  updateAgentDefinition,
  envOfTenant,
  CycliumError,
} from "@cyclium/core/console";
import { audited } from "../audit/audited";
import {
  agentDefinitionView,
  refuseDeploymentActorName,
  writtenDefinition,
} from "../commands/agent-definition-commands";
import {
  ZActorBody,
  ZActorParams,
  ZActorPatchBody,
  type TActorParams,
} from "./actor-endpoints.schema";
import { readJsonBody, refuseBody } from "./read-json-body";
import { restEndpoint, type TRestCall, type TRestDeps, type TRouteHandler } from "./rest-endpoint";
import { restJson } from "./rest-response";
import { ZTenantParams } from "./trigger-endpoints.schema";

function auditContext(call: TRestCall<{ t: string }>) {
  return { db: call.db, principal: call.principal, request: { ip: call.info.ip } };
}

const auditWhat = (action: string, target: string, tenant: string, extra = {}) => ({
  action,
  target,
  detail: { via: "rest", tenant, ...extra },
});

export function createActorEndpoints(deps: TRestDeps): {
  list: TRouteHandler;
  create: TRouteHandler;
  get: TRouteHandler;
  patch: TRouteHandler;
  put: TRouteHandler;
  enable: TRouteHandler;
  disable: TRouteHandler;
} {
  const setEnabled = (enabled: boolean) =>
    restEndpoint(
      {
        method: "POST",
        role: "admin",
        action: "agentDefinitions.setEnabled",
        params: ZActorParams,
        handle: async (call) => ({
          tenant_id: call.params.t,
          actor: await audited(
            auditContext(call),
            auditWhat("agentDefinitions.setEnabled", call.params.name, call.params.t, { enabled }),
            async (tx) =>
              writtenDefinition(
                await setAgentDefinitionEnabled(
                  { env: envOfTenant(call.params.t), identifier: call.params.name, enabled },
                  tx,
                ),
              ),
          ),
        }),
      },
      deps,
    );
  const update = (method: "PATCH" | "PUT") =>
    restEndpoint(
      {
        method,
        role: "admin",
        action: "agentDefinitions.update",
        params: ZActorParams,
        handle: async (call: TRestCall<TActorParams>) => {
          const changes =
            method === "PATCH"
              ? await readJsonBody(call.request, ZActorPatchBody)
              : await replacement(call);
          return {
            tenant_id: call.params.t,
            actor: await audited(
              auditContext(call),
              auditWhat("agentDefinitions.update", call.params.name, call.params.t, {
                fields: Object.keys(changes),
              }),
              async (tx) =>
                writtenDefinition(
                  await updateAgentDefinition(
                    { env: envOfTenant(call.params.t), identifier: call.params.name, changes },
                    tx,
                  ),
                ),
            ),
          };
        },
      },
      deps,
    );
  return {
    list: restEndpoint(
      {
        method: "GET",
        role: "viewer",
        action: "agentDefinitions.list",
        params: ZTenantParams,
        handle: async ({ params, db }) => {
          const items = (await listAgentDefinitions({ env: envOfTenant(params.t) }, db)).map(
            agentDefinitionView,
          );
          return { tenant_id: params.t, items, total: items.length };
        },
      },
      deps,
    ),
    create: restEndpoint(
      {
        method: "POST",
        role: "admin",
        action: "agentDefinitions.create",
        params: ZTenantParams,
        handle: async (call) => {
          const body = await readJsonBody(call.request, ZActorBody);
          const actor = await audited(
            auditContext(call),
            auditWhat("agentDefinitions.create", body.identifier, call.params.t),
            async (tx) => {
              refuseDeploymentActorName(body.identifier);
              return writtenDefinition(
                await createAgentDefinition(
                  { env: envOfTenant(call.params.t), definition: body },
                  tx,
                ),
              );
            },
          );
          return restJson({ tenant_id: call.params.t, actor }, 201);
        },
      },
      deps,
    ),
    get: restEndpoint(
      {
        method: "GET",
        role: "viewer",
        action: "agentDefinitions.get",
        params: ZActorParams,
        handle: async ({ params, db }) => {
          const definition = await getAgentDefinition(
            { env: envOfTenant(params.t), identifier: params.name },
            db,
          );
          if (definition === null) {
            throw new CycliumError(
              "not_found",
              `No dynamic actor "${params.name}" in tenant "${params.t}".`,
            );
          }
          return { tenant_id: params.t, actor: agentDefinitionView(definition) };
        },
      },
      deps,
    ),
    patch: update("PATCH"),
    put: update("PUT"),
    enable: setEnabled(true),
    disable: setEnabled(false),
  };
}

/** `PUT`: the whole definition; its identifier, if sent, must be the one in the path. */
async function replacement(call: TRestCall<TActorParams>) {
  const { identifier, ...fields } = await readJsonBody(call.request, ZActorBody);
  if (identifier !== call.params.name) {
    throw refuseBody(
      "identifier",
      `Invalid request body: identifier "${identifier}" is not the actor in the path ("${call.params.name}"); identifiers cannot be renamed.`,
    );
  }
  return fields;
}
