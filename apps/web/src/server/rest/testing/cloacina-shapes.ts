// The trigger API's answers as Cloacina's clients read them (its OpenAPI 0.10.0, as issue 20
// lists them): required fields and their types. Objects are not strict: our own fields may stand
// beside Cloacina's. Used by the compatibility test; not by the endpoints, which return core's
// types.
import { z } from "zod";

const ZTime = z.iso.datetime({ offset: true });

export const ZCloacinaScheduleItem = z.object({
  id: z.string().min(1),
  schedule_type: z.enum(["cron", "trigger"]),
  workflow_name: z.string().min(1),
  enabled: z.boolean(),
  created_at: ZTime,
  cron_expression: z.string().nullable(),
  poll_interval_ms: z.number().int().nullable(),
  trigger_name: z.string().nullable(),
  paused: z.boolean(),
  paused_at: ZTime.nullable(),
  last_run_at: ZTime.nullable(),
  next_run_at: ZTime.nullable(),
});

export const ZCloacinaList = z.object({
  tenant_id: z.string(),
  items: z.array(ZCloacinaScheduleItem),
  total: z.number().int().min(0),
});

export const ZCloacinaInspect = z.object({
  tenant_id: z.string(),
  schedule: ZCloacinaScheduleItem.pick({
    id: true,
    schedule_type: true,
    workflow_name: true,
    enabled: true,
    cron_expression: true,
    poll_interval_ms: true,
    trigger_name: true,
    paused: true,
    paused_at: true,
  }),
  recent_executions: z
    .array(
      z.object({
        id: z.string().min(1),
        started_at: ZTime,
        completed_at: ZTime.nullable(),
        scheduled_time: ZTime.nullable(),
      }),
    )
    .max(10),
});

export const ZCloacinaPauseResume = z.object({
  tenant_id: z.string(),
  id: z.string().min(1),
  name: z.string().min(1),
  status: z.enum(["paused", "resumed"]),
  paused: z.boolean(),
});

export const ZCloacinaFire = z.object({
  tenant_id: z.string(),
  trigger: z.string().min(1),
  fired: z.number().int().min(0),
  executions: z.array(
    z.object({ workflow_name: z.string().min(1), execution_id: z.string().min(1) }),
  ),
});

/** Ours: Cloacina's interface document is a packaged workflow's; see docs/api.md. */
export const ZTriggerInterface = z.object({
  tenant_id: z.string(),
  name: z.string(),
  parameters: z.array(
    z.object({ name: z.string(), required: z.boolean(), description: z.string() }),
  ),
});

export const ZCloacinaError = z.strictObject({
  error: z.string().min(1),
  code: z.enum([
    "unauthorized",
    "tenant_access_denied",
    "forbidden",
    "trigger_not_found",
    "invalid_pagination",
    "invalid_input",
    "internal_error",
  ]),
});
