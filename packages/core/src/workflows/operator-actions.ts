import { z } from "zod";
import { assertNever, CycliumError } from "../errors/index";
import type { WorkflowEngine } from "./workflow-engine";

// The console's operator actions on a `blocked` workflow instance (SPEC 12, `pause` policy). They
// run on the console's own node engine; the compare-and-set in the engine makes a double click or
// two operators at once apply once.

export const ZResumeWorkflowInstanceInput = z.object({ instanceId: z.uuid() });
export type TResumeWorkflowInstanceInput = z.infer<typeof ZResumeWorkflowInstanceInput>;

export const ZRetryWorkflowStepInput = z.object({
  instanceId: z.uuid(),
  step: z.string().min(1).max(255),
});
export type TRetryWorkflowStepInput = z.infer<typeof ZRetryWorkflowStepInput>;

type Engine = Pick<WorkflowEngine, "resume" | "retryStep">;

/** Accepts the paused steps as they are and lets the instance go on. */
export async function resumeWorkflowInstance(
  options: TResumeWorkflowInstanceInput & { engine: Engine },
): Promise<{ resumed: true }> {
  const input = ZResumeWorkflowInstanceInput.parse(options);
  const result = await options.engine.resume(input);
  switch (result.kind) {
    case "resumed":
      return { resumed: true };
    case "not_blocked":
      throw new CycliumError("conflict", `Workflow instance ${input.instanceId} is not blocked.`);
    default:
      return assertNever(result, "resume result");
  }
}

/** Runs a paused step again (a new attempt, a new episode). */
export async function retryWorkflowStep(
  options: TRetryWorkflowStepInput & { engine: Engine },
): Promise<{ retried: true }> {
  const input = ZRetryWorkflowStepInput.parse(options);
  const result = await options.engine.retryStep(input);
  switch (result.kind) {
    case "retried":
      return { retried: true };
    case "not_paused":
      throw new CycliumError(
        "conflict",
        `Step "${input.step}" of workflow instance ${input.instanceId} is not paused.`,
      );
    default:
      return assertNever(result, "retry step result");
  }
}
