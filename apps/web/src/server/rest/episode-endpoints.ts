// REST v1 episode endpoints (SPEC section 16, "visible everywhere"): why a pending episode waits,
// the same EpisodeWaitReason the console's page and `client.waitReason(id)` give. `{t}` is the env
// the episode belongs to: an episode of another tenant is a 404, as one that does not exist.
import type { ActorDefinition } from "@cyclium/core/console";
import {
  CycliumError,
  envOfTenant,
  explainPendingEpisodes,
  loadEpisode,
} from "@cyclium/core/console";
import { ZEpisodeParams } from "./episode-endpoints.schema";
import { restEndpoint, type TRestDeps, type TRouteHandler } from "./rest-endpoint";

export interface TEpisodeDeps extends TRestDeps {
  /** The deployment's actors (their slots and stacks), for the explanation. */
  getActors: () => readonly ActorDefinition[];
}

export function createEpisodeEndpoints(deps: TEpisodeDeps): { waitReason: TRouteHandler } {
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
  };
}
