import type { Queryable } from "../db/index";
import { CycliumError, isCycliumError } from "../errors/index";
import type { Logger, Telemetry } from "../telemetry/index";
import type { WorkflowRegistry } from "../workflows/index";
import { fanOutFiring, type Execution, type WorkflowStarter } from "./fan-out-firing";
import { unknownTrigger } from "./inspect-trigger";
import { loadTrigger } from "./load-trigger";
import { markTriggerFired } from "./mark-trigger-fired";
import { parseInput } from "./parse-input";
import { envOfTenant } from "./tenant";
import type { TriggerContext } from "./trigger-definition";
import { ZFireTriggerInput, type TFireTriggerInput } from "./trigger-inputs";
import type { TriggerRegistry } from "./trigger-registry";

/** Cloacina's fire answer: `fired` counts the workflows this fire started. */
export interface FireTriggerResult {
  tenant_id: string;
  trigger: string;
  fired: number;
  executions: Execution[];
}

export interface FireTriggerOptions extends TFireTriggerInput {
  db: Queryable;
  startWorkflow: WorkflowStarter;
  triggers?: TriggerRegistry | undefined;
  workflows?: WorkflowRegistry | undefined;
  telemetry?: Telemetry | undefined;
  logger?: Logger | undefined;
}

/**
 * `POST /v1/tenants/{t}/triggers/{name}/fire` (body `{event?}` or `{context?}`): fans out exactly
 * like a scheduled fire, with Cloacina's rules for an operator's fire: it is never deduplicated
 * (a second fire while the first is open runs again) and a paused trigger fires too (pause stops
 * the scheduler, not an operator). The firing and each workflow's outcome are recorded whatever
 * the primary does; the primary's error is then rethrown, a secondary's only recorded.
 */
export async function fireTrigger(options: FireTriggerOptions): Promise<FireTriggerResult> {
  const input = parseInput(ZFireTriggerInput, options);
  const env = envOfTenant(input.tenantId);
  const row = await loadTrigger({ name: input.name, env }, options.db);
  if (!row) throw unknownTrigger(input.name, input.tenantId);
  const definition = options.triggers?.get(row.name);
  const result = await fanOutFiring({
    db: options.db,
    trigger: {
      id: row.id,
      name: row.name,
      env: row.env,
      workflow: row.workflow,
      fanOut: definition?.fanOut ?? true,
      allowConcurrent: definition?.allowConcurrent ?? false,
    },
    source: "manual",
    context: input.context ?? contextOfEvent(input.event),
    scheduledTime: null,
    firedBy: input.firedBy,
    startWorkflow: options.startWorkflow,
    ...(input.runAt === undefined && input.delayMs === undefined && input.priority === undefined
      ? {}
      : { timing: { runAt: input.runAt, delayMs: input.delayMs, priority: input.priority } }),
    workflows: options.workflows,
    telemetry: options.telemetry,
    logger: options.logger,
  });
  const base = { tenant_id: input.tenantId, trigger: row.name };
  // Unreachable for a manual fire (its hash is unique); kept so a change there cannot go unseen.
  if (result.kind === "deduped") return { ...base, fired: 0, executions: [] };
  await markTriggerFired({ triggerId: row.id, at: row.db_now }, options.db);
  if (result.primaryError !== null) {
    // The trigger exists; what is missing is its workflow in this process. A 404 would say the
    // trigger is unknown: it is a conflict of deployments, and the failed firing is on record.
    if (isCycliumError(result.primaryError) && result.primaryError.code === "not_found") {
      throw new CycliumError(
        "conflict",
        `Trigger "${row.name}" fired, but its workflow "${row.workflow}" could not start here: ${result.primaryError.message} The firing is recorded as failed.`,
      );
    }
    throw result.primaryError;
  }
  return { ...base, fired: result.executions.length, executions: result.executions };
}

function contextOfEvent(event: unknown): TriggerContext | undefined {
  if (event === undefined || event === null) return undefined;
  if (typeof event === "object" && !Array.isArray(event)) return event as TriggerContext;
  return { event };
}
