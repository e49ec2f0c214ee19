import { CLAIM_STATES } from "@cyclium/core/console";
import { z } from "zod";
import { ZEnvInput, ZName, pageInput } from "./shared.schema";

export const ZClaimListInput = z.object({
  env: ZEnvInput,
  state: z.enum(CLAIM_STATES).optional(),
  ownerNode: ZName.optional(),
  lapsedOnly: z.boolean().optional(),
  ...pageInput("bigint"),
});

export const ZClaimSummaryInput = z.object({ env: ZEnvInput });

export const ZEpisodeLeaseListInput = z.object({ env: ZEnvInput });
