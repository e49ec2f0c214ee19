import { publishBusEvent } from "../../bus/index";
import type { Queryable } from "../../db/index";

/**
 * Published on every write of cyclium_agent_definitions; each node's DynamicActorLoader reloads
 * on it, so an edit takes effect in milliseconds instead of at the next 2 s re-read (which stays
 * as the fallback for a missed notification or a row edited with SQL).
 */
export const AGENT_DEFINITIONS_CHANGED = "agent_definitions.changed";

export interface AgentDefinitionChangedPayload {
  identifier: string;
  /** The env of the changed definition; every node reloads anyway (the table is small). */
  env: string | null;
}

/** Sent on `db`: inside the caller's transaction it is delivered only when that commits. */
export async function publishAgentDefinitionChanged(
  payload: AgentDefinitionChangedPayload,
  db: Queryable,
): Promise<void> {
  await publishBusEvent({ db, topic: AGENT_DEFINITIONS_CHANGED, payload });
}
