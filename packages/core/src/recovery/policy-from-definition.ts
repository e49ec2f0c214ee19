import {
  parseAgentDefinition,
  type StoredAgentDefinition,
} from "../actors/definitions/agent-definition";
import { findExpectation } from "../actors/actor-definition";
import type { RecoveryPolicy } from "../actors/recovery-policy";

/**
 * The policy of `expectationId` in one enabled `cyclium_agent_definitions` row, read through the
 * loader's own parse (one spelling of every field), or `undefined` when the expectation is not
 * there or the row does not load. A row the loader skips runs on no node, so restarting its
 * orphan would leave it `pending` forever (issue 19: a snake_case `recovery_policy` did that);
 * undefined makes recovery fail it as an unknown actor's.
 */
export function policyFromDefinition(
  row: StoredAgentDefinition,
  expectationId: string,
): RecoveryPolicy | undefined {
  const parsed = parseAgentDefinition(row);
  if (parsed.kind === "invalid") return undefined;
  return findExpectation(parsed.actor, expectationId)?.recoveryPolicy;
}
