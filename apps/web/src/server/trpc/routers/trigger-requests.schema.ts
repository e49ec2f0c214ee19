import { TRIGGER_REQUEST_STATUSES } from "@cyclium/core/console";
import { z } from "zod";
import { ZEnvInput, ZName, pageInput } from "./shared.schema";

export const ZTriggerRequestListInput = z.object({
  env: ZEnvInput,
  status: z.enum(TRIGGER_REQUEST_STATUSES).optional(),
  actorId: ZName.optional(),
  ...pageInput("bigint"),
});
