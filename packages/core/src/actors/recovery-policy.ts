import { z } from "zod";

/**
 * What recovery does with an orphan (SPEC section 5); `fail` is the safe default. An expectation
 * field, so it lives with the actors recovery reads (recovery imports actors, never the reverse).
 */
export const RECOVERY_POLICIES = ["fail", "restart"] as const;
export const ZRecoveryPolicy = z.enum(RECOVERY_POLICIES);
export type RecoveryPolicy = z.infer<typeof ZRecoveryPolicy>;

/** The fields of an orphaned episode a policy decision may look at. */
export interface OrphanedEpisode {
  id: string;
  actorId: string;
  expectationId: string;
  attempt: number;
  dedupeKey: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
  workflowInstanceId: string | null;
  workflowStep: string | null;
}

/**
 * The compiled actor registry as recovery sees it. The runtime's ActorRegistry satisfies it;
 * `undefined` means "not a compiled actor or expectation here", which sends the lookup on to
 * `cyclium_agent_definitions`.
 */
export interface RecoveryPolicySource {
  recoveryPolicyFor(actorId: string, expectationId: string): RecoveryPolicy | undefined;
}

/** A caller-supplied decision, replacing the registry and definitions lookup. */
export type ResolveRecoveryPolicy = (
  episode: OrphanedEpisode,
) => RecoveryPolicy | Promise<RecoveryPolicy>;
