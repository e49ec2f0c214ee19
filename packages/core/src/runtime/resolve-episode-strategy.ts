import type { ActorRegistry, AnyStrategy, Budget, Retry } from "../actors/index";
import { findExpectation } from "../actors/index";
import type { Episode } from "../episodes/index";
import { RUNTIME_ERROR_CLASSES } from "./error-classes";

/**
 * The strategy and budget an episode runs with on this node, or the error class and message it
 * fails with when its actor, expectation or strategy is not registered here.
 */
export type ResolvedEpisodeStrategy =
  | { kind: "resolved"; strategy: AnyStrategy; budget: Budget; retry: Retry | undefined }
  | { kind: "unknown_actor" | "unknown_strategy"; errorClass: string; message: string };

export function resolveEpisodeStrategy(
  episode: Episode,
  registry: ActorRegistry,
  nodeIdentity: string,
): ResolvedEpisodeStrategy {
  const actor = registry.get(episode.actorId);
  const expectation = actor && findExpectation(actor, episode.expectationId);
  if (actor === undefined || expectation === undefined) {
    return {
      kind: "unknown_actor",
      errorClass: RUNTIME_ERROR_CLASSES.unknownActor,
      message: `Actor "${episode.actorId}" has no expectation "${episode.expectationId}" on node ${nodeIdentity}.`,
    };
  }
  const strategy = registry.resolveStrategy(expectation);
  if (strategy.kind === "unknown_strategy") {
    const known = registry.strategies.names();
    return {
      kind: "unknown_strategy",
      errorClass: RUNTIME_ERROR_CLASSES.unknownStrategy,
      message: `Strategy "${strategy.name}" (actor ${actor.identifier}, expectation ${expectation.id}) is not registered on node ${nodeIdentity}; registered: ${known.length > 0 ? known.join(", ") : "none"}.`,
    };
  }
  return {
    kind: "resolved",
    strategy: strategy.strategy,
    budget: expectation.budget,
    retry: expectation.retry,
  };
}
