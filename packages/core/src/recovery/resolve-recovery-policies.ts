import type { Queryable } from "../db/index";
import type { OrphanFailReason } from "./fail-orphaned-episodes";
import { loadAgentDefinitions, type AgentDefinitionRow } from "../actors/load-agent-definitions";
import { policyFromDefinition } from "./policy-from-definition";
import {
  type OrphanedEpisode,
  type RecoveryPolicy,
  type RecoveryPolicySource,
  type ResolveRecoveryPolicy,
} from "../actors/recovery-policy";

export type RecoveryDecision = { policy: "restart" } | { policy: "fail"; reason: OrphanFailReason };

export interface ResolveRecoveryPoliciesOptions {
  episodes: readonly OrphanedEpisode[];
  registry?: RecoveryPolicySource | undefined;
  resolvePolicy?: ResolveRecoveryPolicy | undefined;
  db: Queryable;
}

/**
 * Decides every candidate's policy before any is claimed, so the claim transactions hold their
 * row locks for writes only. Order (SPEC section 5): a caller's `resolvePolicy` replaces the
 * lookup; otherwise the compiled registry, then `cyclium_agent_definitions` (one query for all
 * actors the registry does not know), and an actor found in neither fails as `unknown_actor`.
 */
export async function resolveRecoveryPolicies(
  options: ResolveRecoveryPoliciesOptions,
): Promise<Map<string, RecoveryDecision>> {
  const decisions = new Map<string, RecoveryDecision>();
  const { episodes, registry, resolvePolicy } = options;

  if (resolvePolicy) {
    for (const episode of episodes) {
      decisions.set(episode.id, fromPolicy(await resolvePolicy(episode)));
    }
    return decisions;
  }

  const unresolved: OrphanedEpisode[] = [];
  for (const episode of episodes) {
    const policy = registry?.recoveryPolicyFor(episode.actorId, episode.expectationId);
    if (policy === undefined) unresolved.push(episode);
    else decisions.set(episode.id, fromPolicy(policy));
  }
  if (unresolved.length === 0) return decisions;

  // A dynamic actor belongs to one env: an orphan's is looked up in the orphan's env. A sweep is
  // env-scoped, so this is one query in practice.
  const definitions = new Map<string, AgentDefinitionRow>();
  for (const env of new Set(unresolved.map((episode) => episode.sourceEnv))) {
    const inEnv = unresolved.filter((episode) => episode.sourceEnv === env);
    const identifiers = [...new Set(inEnv.map((episode) => episode.actorId))];
    for (const row of await loadAgentDefinitions({ env, identifiers }, options.db)) {
      definitions.set(definitionKey(env, row.identifier), row);
    }
  }
  for (const episode of unresolved) {
    const definition = definitions.get(definitionKey(episode.sourceEnv, episode.actorId));
    const policy =
      definition === undefined
        ? undefined
        : policyFromDefinition(definition, episode.expectationId);
    decisions.set(
      episode.id,
      policy === undefined ? { policy: "fail", reason: "unknown_actor" } : fromPolicy(policy),
    );
  }
  return decisions;
}

const definitionKey = (env: string | null, identifier: string) => JSON.stringify([env, identifier]);

function fromPolicy(policy: RecoveryPolicy): RecoveryDecision {
  return policy === "restart" ? { policy } : { policy, reason: "policy" };
}
