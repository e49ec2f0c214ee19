import type { ActorRegistry } from "../actors/index";
import { actorGlobalRule, claimCap, declaresLimit } from "../limits/index";
import type { LimitedRequests } from "../deferred/index";

/**
 * What startRequestedEpisodes needs to start the registry's limited actors through the limit gate
 * (SPEC section 16): which actors declare a limit (on themselves or an expectation), an
 * episode's rules, and how many of an actor's requests one call may take. Read from the registry
 * at each call, so a dynamic actor's change applies at once.
 */
export function limitedRequestsOf(registry: ActorRegistry): LimitedRequests {
  return {
    get actorIds() {
      return registry
        .list()
        .filter(
          (actor) =>
            declaresLimit(actor) ||
            actor.expectations.some((expectation) => declaresLimit(expectation)),
        )
        .map((actor) => actor.identifier);
    },
    rulesFor: (episode) => registry.limitRulesFor(episode),
    capFor: (actorId) => {
      const actor = registry.get(actorId);
      return actor === undefined ? undefined : claimCap(actor);
    },
    roomFor: (actorId, env) => {
      const actor = registry.get(actorId);
      return actor === undefined ? undefined : actorGlobalRule(actorId, env, actor);
    },
  };
}
