import { WORKFLOW_INSTANCE_STATUSES } from "@cyclium/core/console";
import { z } from "zod";
import { ZEnvInput, ZName, pageInput, ZUuid } from "./shared.schema";

export const ZWorkflowListInput = z.object({
  env: ZEnvInput,
  workflowName: ZName.optional(),
  status: z.enum(WORKFLOW_INSTANCE_STATUSES).optional(),
  ...pageInput("uuid"),
});

export const ZWorkflowInstanceInput = z.object({ id: ZUuid });

export const ZWorkflowResumeInput = z.object({ instanceId: ZUuid });
export type TWorkflowResumeInput = z.infer<typeof ZWorkflowResumeInput>;

export const ZWorkflowRetryStepInput = z.object({ instanceId: ZUuid, step: ZName });
export type TWorkflowRetryStepInput = z.infer<typeof ZWorkflowRetryStepInput>;
