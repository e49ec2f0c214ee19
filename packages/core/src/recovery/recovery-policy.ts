import { z } from "zod";

/** What recovery does with an orphan (SPEC section 5); `fail` is the safe default. */
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

/**
 * Dynamic actors keep their expectations as JSON. Only the two fields recovery needs are read,
 * and both spellings are accepted because the rows are written by hand or by tools as often as
 * by code; anything else in the row is none of recovery's business.
 */
const ZDefinitionExpectation = z
  .object({
    id: z.string(),
    recoveryPolicy: ZRecoveryPolicy.optional(),
    recovery_policy: ZRecoveryPolicy.optional(),
  })
  .loose();

/**
 * The policy of `expectationId` in one `cyclium_agent_definitions.expectations` value, or
 * `undefined` when the expectation is not there. A known expectation without a policy gets the
 * default `fail`, as a compiled expectation would.
 */
export function policyFromDefinition(
  expectations: unknown,
  expectationId: string,
): RecoveryPolicy | undefined {
  if (!Array.isArray(expectations)) return undefined;
  for (const raw of expectations) {
    const parsed = ZDefinitionExpectation.safeParse(raw);
    if (!parsed.success || parsed.data.id !== expectationId) continue;
    return parsed.data.recoveryPolicy ?? parsed.data.recovery_policy ?? "fail";
  }
  return undefined;
}
