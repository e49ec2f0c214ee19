import type { Queryable } from "../db/index";
import { unknownTrigger } from "./inspect-trigger";
import { loadTrigger } from "./load-trigger";
import { parseInput } from "./parse-input";
import { envOfTenant } from "./tenant";
import { ZTriggerNameInput, type TTriggerNameInput } from "./trigger-inputs";

/** One key of the context a trigger's workflows receive. */
export interface TriggerParameter {
  name: string;
  /** A JSON Schema type name, or a list of them. */
  type: string | string[];
  required: boolean;
  description: string;
}

export interface TriggerInterfaceResult {
  tenant_id: string;
  name: string;
  trigger_name: string;
  workflow_name: string;
  schedule_type: "cron" | "trigger";
  parameters: TriggerParameter[];
}

const ALWAYS: TriggerParameter[] = [
  {
    name: "trigger_name",
    type: "string",
    required: true,
    description: "The trigger that fired.",
  },
  {
    name: "triggered_at",
    type: "string",
    required: true,
    description: "When the fire was recorded (ISO 8601).",
  },
  {
    name: "scheduled_time",
    type: ["string", "null"],
    required: true,
    description: "The cron or interval window fired (ISO 8601); null for poll and manual fires.",
  },
];

const CRON: TriggerParameter[] = [
  {
    name: "schedule_id",
    type: "string",
    required: false,
    description: "Cron and interval fires: the trigger's id.",
  },
  {
    name: "schedule_timezone",
    type: "string",
    required: false,
    description: "Cron and interval fires: the IANA zone of the rule (UTC for an interval).",
  },
  {
    name: "schedule_expression",
    type: "string",
    required: false,
    description: "Cron and interval fires: the cron expression, or `@every <n>s`.",
  },
];

const MANUAL: TriggerParameter[] = [
  {
    name: "manual_fire",
    type: "boolean",
    required: false,
    description: "Manual fires: true.",
  },
  {
    name: "event",
    type: ["object", "array", "string", "number", "boolean", "null"],
    required: false,
    description:
      "Manual fires: the `event` of the fire body. An object's keys are merged into the context; any other value is kept under `event`.",
  },
];

/**
 * `GET /v1/tenants/{t}/triggers/{name}/interface`: what a fire of this trigger hands its
 * workflows. Our triggers declare no parameters of their own (Cloacina's packaged workflows do),
 * so this is the context every fire carries, by kind: the keys the runtime adds and the `event`
 * an operator may send.
 */
export async function describeTriggerInterface(
  options: { db: Queryable } & TTriggerNameInput,
): Promise<TriggerInterfaceResult> {
  const input = parseInput(ZTriggerNameInput, options);
  const row = await loadTrigger({ name: input.name, env: envOfTenant(input.tenantId) }, options.db);
  if (!row) throw unknownTrigger(input.name, input.tenantId);
  return {
    tenant_id: input.tenantId,
    name: input.name,
    trigger_name: row.name,
    workflow_name: row.workflow,
    schedule_type: row.kind === "cron" ? "cron" : "trigger",
    parameters: [...ALWAYS, ...(row.kind === "poll" ? [] : CRON), ...MANUAL],
  };
}
