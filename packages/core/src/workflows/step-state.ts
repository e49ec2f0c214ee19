import { z } from "zod";

/**
 * SPEC section 12's step states, plus `failed` for the step whose failure aborted its workflow
 * (the others are `cancelled`), so the console can point at the step that broke it.
 */
export const STEP_STATUSES = [
  "pending",
  "running",
  "done",
  "failed",
  "retrying",
  "paused",
  "cancelled",
] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export const WORKFLOW_INSTANCE_STATUSES = [
  "running",
  "blocked",
  "done",
  "failed",
  "cancelled",
] as const;
export type WorkflowInstanceStatus = (typeof WORKFLOW_INSTANCE_STATUSES)[number];

export function isTerminalInstanceStatus(status: WorkflowInstanceStatus): boolean {
  return status === "done" || status === "failed" || status === "cancelled";
}

/**
 * One step in `cyclium_workflow_instances.step_states`. `attempt` counts starts (0 while
 * pending) and is part of the step's idempotency key, so a replayed start of the same attempt
 * creates no second episode while a retry creates a new one.
 */
export const ZStepState = z.object({
  status: z.enum(STEP_STATUSES),
  attempt: z.number().int().min(0),
  episodeId: z.string().nullable().default(null),
  startedAt: z.string().nullable().default(null),
  finishedAt: z.string().nullable().default(null),
  retryAt: z.string().nullable().default(null),
  error: z.string().nullable().default(null),
});
export type StepState = z.infer<typeof ZStepState>;

export const ZStepStates = z.record(z.string(), ZStepState);
export type StepStates = Record<string, StepState>;

export function pendingStep(): StepState {
  return {
    status: "pending",
    attempt: 0,
    episodeId: null,
    startedAt: null,
    finishedAt: null,
    retryAt: null,
    error: null,
  };
}
