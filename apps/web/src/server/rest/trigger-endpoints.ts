// REST v1 trigger endpoints (SPEC sections 9 and 12), in Cloacina's shapes and error codes, at
// `/v1/...` and `/api/v1/...` (proxy.ts rewrites the first). Each validates, authorizes
// (restEndpoint), and calls one core function; state changes run inside `audited` with the same
// action names as the console's procedures.
import {
  CycliumError,
  describeTriggerInterface,
  fireTrigger,
  inspectTrigger,
  listTriggers,
  pauseTrigger,
  resumeTrigger,
} from "@cyclium/core/console";
import { audited } from "../audit/audited";
import { describePrincipal } from "../auth/principal";
import { readJsonBody, readQuery } from "./read-json-body";
import {
  restEndpoint,
  type TRestCall,
  type TRestDeps,
  type TRestEndpointSpec,
  type TRouteHandler,
} from "./rest-endpoint";
import {
  CLOACINA_ERROR_CODES,
  ZFireTriggerBody,
  ZInspectTriggerQuery,
  ZListTriggersQuery,
  ZTenantParams,
  ZTriggerParams,
  type TTriggerParams,
} from "./trigger-endpoints.schema";
import type { TTriggerServices } from "./trigger-services";

const runtimeNotRunning = (): Promise<never> =>
  Promise.reject(new CycliumError("shutdown", "The console's trigger runtime is not running."));

export interface TTriggerEndpointDeps extends TRestDeps {
  getTriggerServices: () => TTriggerServices | null;
}

/** Every trigger endpoint answers errors with Cloacina's codes. */
function endpoint<P>(spec: TRestEndpointSpec<P>, deps: TRestDeps): TRouteHandler {
  return restEndpoint({ ...spec, errorCodes: CLOACINA_ERROR_CODES }, deps);
}

function auditContext(call: TRestCall<TTriggerParams>) {
  return { db: call.db, principal: call.principal, request: { ip: call.info.ip } };
}

const auditWhat = (action: string, params: TTriggerParams) => ({
  action,
  target: params.name,
  detail: { via: "rest", tenant: params.t },
});

export function createTriggerEndpoints(deps: TTriggerEndpointDeps): {
  list: TRouteHandler;
  inspect: TRouteHandler;
  fire: TRouteHandler;
  pause: TRouteHandler;
  resume: TRouteHandler;
  describe: TRouteHandler;
} {
  const registries = () => {
    const services = deps.getTriggerServices();
    return { triggers: services?.triggers, workflows: services?.workflows };
  };
  return {
    list: endpoint(
      {
        method: "GET",
        role: "viewer",
        action: "triggers.list",
        params: ZTenantParams,
        handle: async ({ request, params, db }) => {
          const page = readQuery(request, ZListTriggersQuery, "invalid_pagination");
          return listTriggers({ db, ...registries(), tenantId: params.t, ...page });
        },
      },
      deps,
    ),
    inspect: endpoint(
      {
        method: "GET",
        role: "viewer",
        action: "triggers.inspect",
        params: ZTriggerParams,
        handle: ({ request, params, db }) =>
          inspectTrigger({
            db,
            ...registries(),
            tenantId: params.t,
            name: params.name,
            ...readQuery(request, ZInspectTriggerQuery),
          }),
      },
      deps,
    ),
    fire: endpoint(
      {
        method: "POST",
        role: "operator",
        action: "triggers.fire",
        params: ZTriggerParams,
        handle: async (call) => {
          const body = await readJsonBody(call.request, ZFireTriggerBody);
          // Without the runtime an unknown (404) or paused (409) trigger is still answered as
          // such; only a fire that would start a workflow fails, with 503.
          const services = deps.getTriggerServices() ?? { startWorkflow: runtimeNotRunning };
          // The firing is recorded on the pool, outside the audit transaction: it and its
          // per-workflow outcome stay whatever the primary's outcome (the audit row says it).
          return audited(auditContext(call), auditWhat("triggers.fire", call.params), () =>
            fireTrigger({
              db: call.db,
              ...services,
              tenantId: call.params.t,
              name: call.params.name,
              context: body.context,
              event: body.event,
              runAt: body.runAt,
              delayMs: body.delayMs,
              priority: body.priority,
              firedBy: describePrincipal(call.principal),
            }),
          );
        },
      },
      deps,
    ),
    pause: endpoint(
      {
        method: "POST",
        role: "operator",
        action: "triggers.pause",
        params: ZTriggerParams,
        handle: (call) =>
          audited(auditContext(call), auditWhat("triggers.pause", call.params), (tx) =>
            pauseTrigger({
              db: tx,
              tenantId: call.params.t,
              name: call.params.name,
              by: describePrincipal(call.principal),
            }),
          ),
      },
      deps,
    ),
    resume: endpoint(
      {
        method: "POST",
        role: "operator",
        action: "triggers.resume",
        params: ZTriggerParams,
        handle: (call) =>
          audited(auditContext(call), auditWhat("triggers.resume", call.params), (tx) =>
            resumeTrigger({ db: tx, tenantId: call.params.t, name: call.params.name }),
          ),
      },
      deps,
    ),
    describe: endpoint(
      {
        method: "GET",
        role: "viewer",
        action: "triggers.interface",
        params: ZTriggerParams,
        handle: ({ params, db }) =>
          describeTriggerInterface({ db, tenantId: params.t, name: params.name }),
      },
      deps,
    ),
  };
}
