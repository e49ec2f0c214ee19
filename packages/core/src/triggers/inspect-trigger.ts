import type { Queryable } from "../db/index";
import { CycliumError } from "../errors/index";
import type { WorkflowRegistry } from "../workflows/index";
import { listTriggerFirings } from "./list-trigger-firings";
import { loadTrigger } from "./load-trigger";
import { parseInput } from "./parse-input";
import { subscribersOf } from "./subscribers-of";
import { envOfTenant, tenantIdOf } from "./tenant";
import { toFiringItem, type FiringItem } from "./trigger-firing-row";
import { ZInspectTriggerInput, type TInspectTriggerInput } from "./trigger-inputs";
import type { TriggerRegistry } from "./trigger-registry";
import { toTriggerItem, type TriggerItem } from "./trigger-row";

export interface InspectTriggerResult {
  tenant_id: string;
  trigger: TriggerItem;
  recent_firings: FiringItem[];
}

/** `GET /api/v1/tenants/{t}/triggers/{name}` (SPEC section 12); unknown name -> `not_found`. */
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
  const firings = await listTriggerFirings({ triggerId: row.id, limit: input.firings }, options.db);
  return {
    tenant_id: tenantIdOf(env),
    trigger: toTriggerItem(row, subscribersOf(row, options)),
    recent_firings: firings.map(toFiringItem),
  };
}

export function unknownTrigger(name: string, tenantId: string): CycliumError {
  return new CycliumError("not_found", `No trigger "${name}" in tenant "${tenantId}".`);
}
