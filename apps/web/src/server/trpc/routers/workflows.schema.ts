import { WORKFLOW_INSTANCE_STATUSES } from "@cyclium/core/workflows";
import { z } from "zod";
import { ZEnvInput, ZName, ZPageInput, ZUuid } from "./shared.schema";

export const ZWorkflowListInput = z.object({
  env: ZEnvInput,
  workflowName: ZName.optional(),
  status: z.enum(WORKFLOW_INSTANCE_STATUSES).optional(),
  ...ZPageInput,
});

export const ZWorkflowInstanceInput = z.object({ id: ZUuid });
