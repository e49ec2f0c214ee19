import { FINDING_STATUSES } from "@cyclium/core/console";
import { z } from "zod";
import { ZEnvInput, ZName, pageInput } from "./shared.schema";

export const ZFindingListInput = z.object({
  env: ZEnvInput,
  status: z.enum(FINDING_STATUSES).default("active"),
  class: ZName.optional(),
  severity: ZName.optional(),
  ...pageInput("uuid"),
});

export const ZFindingSummaryInput = z.object({ env: ZEnvInput });
