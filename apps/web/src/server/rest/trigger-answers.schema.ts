// What the trigger endpoints answer, as zod schemas: the OpenAPI document's response schemas
// (openapi/), which the contract test checks every answer against. The types core returns must
// stay these shapes: the assertions at the bottom fail to compile when a field is added, renamed
// or retyped on one side only.
import { CATCH_UP_POLICIES } from "@cyclium/core/console";
import type {
  FireTriggerResult,
  InspectTriggerResult,
  ListTriggersResult,
  PauseTriggerResult,
  TriggerInterfaceResult,
} from "@cyclium/core/console";
import { z } from "zod";
import type { TExpect, TSameShape } from "./same-shape";

const ZTime = z.iso.datetime({ offset: true });

/** Cloacina's `ScheduleItem` (its OpenAPI 0.10.0) and ours beside it; see core's trigger-row.ts. */
export const ZTriggerItem = z.strictObject({
  id: z.string(),
  schedule_type: z.enum(["cron", "trigger"]),
  workflow_name: z.string(),
  enabled: z.boolean().describe("`!paused`"),
  created_at: ZTime,
  cron_expression: z.string().nullable(),
  poll_interval_ms: z.number().int().nullable(),
  trigger_name: z.string().nullable(),
  paused: z.boolean(),
  paused_at: ZTime.nullable(),
  last_run_at: ZTime.nullable(),
  next_run_at: ZTime.nullable(),
  name: z.string(),
  kind: z.enum(["cron", "interval", "poll"]),
  interval_ms: z.number().int().nullable().describe("An interval schedule's window; else null."),
  workflow: z.string(),
  cron: z.string().nullable(),
  timezone: z.string().nullable(),
  catch_up: z.enum(CATCH_UP_POLICIES),
  paused_by: z.string().nullable(),
  next_fire_at: ZTime.nullable(),
  last_fire_at: ZTime.nullable(),
  subscribers: z
    .array(z.string())
    .optional()
    .describe("Workflows that run when it fires, primary first, where they are registered."),
});

/** Cloacina's execution: one of our firings. */
export const ZExecutionItem = z.strictObject({
  id: z.string(),
  started_at: ZTime,
  completed_at: ZTime.nullable(),
  scheduled_time: ZTime.nullable(),
});

export const ZFiringItem = z.strictObject({
  id: z.string(),
  source: z.enum(["cron", "interval", "poll", "manual"]),
  status: z.enum(["running", "completed", "failed"]),
  context_hash: z.string(),
  context: z.record(z.string(), z.unknown()),
  scheduled_time: ZTime.nullable(),
  outcomes: z.array(
    z.strictObject({
      workflow: z.string(),
      primary: z.boolean(),
      status: z.enum(["started", "failed"]),
      instance_id: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
  error_message: z.string().nullable(),
  fired_by: z.string().nullable(),
  fired_at: ZTime,
  finished_at: ZTime.nullable(),
});

export const ZListTriggersAnswer = z.strictObject({
  tenant_id: z.string(),
  items: z.array(ZTriggerItem),
  total: z.number().int().min(0).describe("Triggers in the tenant, across every page."),
});

export const ZInspectTriggerAnswer = z.strictObject({
  tenant_id: z.string(),
  schedule: ZTriggerItem,
  recent_executions: z.array(ZExecutionItem).max(10),
  trigger: ZTriggerItem,
  recent_firings: z.array(ZFiringItem),
});

export const ZFireTriggerAnswer = z.strictObject({
  tenant_id: z.string(),
  trigger: z.string(),
  fired: z.number().int().min(0).describe("Workflows this fire started."),
  executions: z.array(
    z.strictObject({
      workflow_name: z.string(),
      execution_id: z.string(),
      workflow: z.string(),
      instance_id: z.string(),
      primary: z.boolean(),
    }),
  ),
});

export const ZPauseTriggerAnswer = z.strictObject({
  tenant_id: z.string(),
  id: z.string(),
  name: z.string().describe("The name the caller used: the trigger's or its workflow's."),
  status: z.enum(["paused", "resumed"]),
  paused: z.boolean(),
});

export const ZTriggerInterfaceAnswer = z.strictObject({
  tenant_id: z.string(),
  name: z.string(),
  trigger_name: z.string(),
  workflow_name: z.string(),
  schedule_type: z.enum(["cron", "trigger"]),
  parameters: z.array(
    z.strictObject({
      name: z.string(),
      type: z.union([z.string(), z.array(z.string())]).describe("JSON Schema type name(s)."),
      required: z.boolean(),
      description: z.string(),
    }),
  ),
});

// Compile-time: core's results are exactly these shapes.
export type TTriggerAnswersMatchCore = [
  TExpect<TSameShape<ListTriggersResult, z.output<typeof ZListTriggersAnswer>>>,
  TExpect<TSameShape<InspectTriggerResult, z.output<typeof ZInspectTriggerAnswer>>>,
  TExpect<TSameShape<FireTriggerResult, z.output<typeof ZFireTriggerAnswer>>>,
  TExpect<TSameShape<PauseTriggerResult, z.output<typeof ZPauseTriggerAnswer>>>,
  TExpect<TSameShape<TriggerInterfaceResult, z.output<typeof ZTriggerInterfaceAnswer>>>,
];
