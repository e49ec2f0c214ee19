import type { Queryable } from "../db/index";
import { CycliumError } from "../errors/index";
import type { WorkflowRegistry } from "../workflows/index";
import { listTriggerFirings } from "./list-trigger-firings";
import { loadTrigger } from "./load-trigger";
import { parseInput } from "./parse-input";
import { subscribersOf } from "./subscribers-of";
import { envOfTenant } from "./tenant";
import {
  toExecutionItem,
  toFiringItem,
  type ExecutionItem,
  type FiringItem,
} from "./trigger-firing-row";
import { ZInspectTriggerInput, type TInspectTriggerInput } from "./trigger-inputs";
import type { TriggerRegistry } from "./trigger-registry";
import { toTriggerItem, type TriggerItem } from "./trigger-row";

/** Cloacina answers an inspect with the last 10 executions; `firings` asks for more of ours. */
const RECENT_EXECUTIONS = 10;

/**
 * Cloacina's `{tenant_id, schedule, recent_executions}`, with ours beside it: `trigger` (the same
 * item as `schedule`, which the console reads) and `recent_firings` with each subscriber's outcome.
 */
export interface InspectTriggerResult {
  tenant_id: string;
  schedule: TriggerItem;
  recent_executions: ExecutionItem[];
  trigger: TriggerItem;
  recent_firings: FiringItem[];
}

/** `GET /v1/tenants/{t}/triggers/{name}` (SPEC section 12); unknown name -> `not_found`. */
export async function inspectTrigger(
  options: {
    db: Queryable;
    triggers?: TriggerRegistry;
    workflows?: WorkflowRegistry;
  } & TInspectTriggerInput,
): Promise<InspectTriggerResult> {
  const input = parseInput(ZInspectTriggerInput, options);
  const env = envOfTenant(input.tenantId);
  const row = await loadTrigger({ name: input.name, env }, options.db);
  if (!row) throw unknownTrigger(input.name, input.tenantId);
  const firings = await listTriggerFirings(
    { triggerId: row.id, limit: Math.max(input.firings, RECENT_EXECUTIONS) },
    options.db,
  );
  const item = toTriggerItem(row, subscribersOf(row, options));
  return {
    tenant_id: input.tenantId,
    schedule: item,
    recent_executions: firings.slice(0, RECENT_EXECUTIONS).map(toExecutionItem),
    trigger: item,
    recent_firings: firings.slice(0, input.firings).map(toFiringItem),
  };
}

export function unknownTrigger(name: string, tenantId: string): CycliumError {
  return new CycliumError("not_found", `No trigger "${name}" in tenant "${tenantId}".`);
}
