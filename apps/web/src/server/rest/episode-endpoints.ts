// REST v1 episode endpoints. `{t}` is the env the episode belongs to: an episode of another tenant
// is a 404, as one that does not exist.
// - GET .../wait-reason (SPEC section 16, "visible everywhere"): why a pending episode waits, the
//   same EpisodeWaitReason the console's page and `client.waitReason(id)` give.
// - POST .../signals/{name} (SPEC section 17): an operator's signal to a waiting episode; the
//   console's one signal command validates the payload and audits it.
import {
  type ActorDefinition,
  CycliumError,
  envOfTenant,
  explainPendingEpisodes,
  loadEpisode,
} from "@cyclium/core/console";
import type { z } from "zod";
import { signalEpisode } from "../commands/episodes/signal-episode";
import {
  ZEpisodeParams,
  ZEpisodeSignalParams,
  ZSignalBody,
  type ZSignalAnswer,
} from "./episode-endpoints.schema";
import { readJsonBody } from "./read-json-body";
import { restEndpoint, type TRestDeps, type TRouteHandler } from "./rest-endpoint";

export interface TEpisodeDeps extends TRestDeps {
  /** The deployment's actors (their slots and stacks), for the explanation. */
  getActors: () => readonly ActorDefinition[];
}

export function createEpisodeEndpoints(deps: TEpisodeDeps): {
  waitReason: TRouteHandler;
  signal: TRouteHandler;
} {
  return {
    waitReason: restEndpoint(
      {
        method: "GET",
        role: "viewer",
        action: "episodes.waitReason",
        params: ZEpisodeParams,
        handle: async ({ params, db }) => {
          const env = envOfTenant(params.t);
          const episode = await loadEpisode(params.id, db);
          if (episode === undefined || episode.sourceEnv !== env) {
            throw new CycliumError("not_found", `No episode ${params.id} in tenant ${params.t}.`);
          }
          const { status } = episode;
          const reasons =
            status === "pending"
              ? await explainPendingEpisodes({
                  db,
                  episodeIds: [params.id],
                  actors: deps.getActors(),
                })
              : {};
          return {
            tenant_id: params.t,
            episode_id: params.id,
            status,
            wait_reason: reasons[params.id] ?? null,
          };
        },
      },
      deps,
    ),
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
