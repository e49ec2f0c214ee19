import type { Queryable } from "../db/index";
import { CycliumError, isCycliumError } from "../errors/index";
import type { Logger, Telemetry } from "../telemetry/index";
import type { WorkflowRegistry } from "../workflows/index";
import { fanOutFiring, type Execution, type WorkflowStarter } from "./fan-out-firing";
import { unknownTrigger } from "./inspect-trigger";
import { loadTrigger } from "./load-trigger";
import { markTriggerFired } from "./mark-trigger-fired";
import { parseInput } from "./parse-input";
import { envOfTenant, tenantIdOf } from "./tenant";
import { ZFireTriggerInput, type TFireTriggerInput } from "./trigger-inputs";
import type { TriggerRegistry } from "./trigger-registry";

export interface FireTriggerResult {
  tenant_id: string;
  trigger: string;
  /** False when an open firing with the same context already runs it. */
  fired: boolean;
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
 * `POST /api/v1/tenants/{t}/triggers/{name}/fire` (body `{context?}`): fans out exactly like a
 * scheduled fire. A paused trigger is a `conflict` (409); the primary's error is rethrown, a
 * secondary's only recorded.
 */
export async function fireTrigger(options: FireTriggerOptions): Promise<FireTriggerResult> {
  const input = parseInput(ZFireTriggerInput, options);
  const env = envOfTenant(input.tenantId);
  const row = await loadTrigger({ name: input.name, env }, options.db);
  if (!row) throw unknownTrigger(input.name, input.tenantId);
  if (row.paused) {
    throw new CycliumError("conflict", `Trigger "${input.name}" is paused; resume it to fire.`);
  }
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
    context: input.context,
    scheduledTime: null,
    firedBy: input.firedBy,
    startWorkflow: options.startWorkflow,
    workflows: options.workflows,
    telemetry: options.telemetry,
    logger: options.logger,
  });
  const base = { tenant_id: tenantIdOf(env), trigger: row.name };
  if (!result.fired) return { ...base, fired: false, executions: [] };
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
  return { ...base, fired: true, executions: result.executions };
}
