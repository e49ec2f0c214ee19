// REST v1 episode endpoints (issue 32): an operator's signal to a waiting episode. Validates,
// authorizes (restEndpoint) and calls the console's one signal command, which audits it.
import { envOfTenant } from "@cyclium/core/triggers";
import type { z } from "zod";
import { signalEpisode } from "../commands/episodes/signal-episode";
import { readJsonBody } from "./read-json-body";
import { restEndpoint, type TRestDeps, type TRouteHandler } from "./rest-endpoint";
import { ZEpisodeSignalParams, ZSignalBody, type ZSignalAnswer } from "./episode-endpoints.schema";

export function createEpisodeEndpoints(deps: TRestDeps): { signal: TRouteHandler } {
  return {
    signal: restEndpoint(
      {
        method: "POST",
        role: "operator",
        action: "episodes.signal",
        params: ZEpisodeSignalParams,
        handle: async (call): Promise<z.output<typeof ZSignalAnswer>> => {
          const body = await readJsonBody(call.request, ZSignalBody);
          const answer = await signalEpisode(
            { db: call.db, principal: call.principal, request: { ip: call.info.ip } },
            {
              episodeId: call.params.id,
              name: call.params.name,
              payload: body.payload,
              idempotencyKey: body.idempotencyKey,
              env: envOfTenant(call.params.t),
              via: "rest",
            },
          );
          return { kind: answer.kind, signal_id: answer.signalId, woke: answer.woke };
        },
      },
      deps,
    ),
  };
}
