import { z } from "zod";
import { ZEnvInput } from "./shared.schema";

export const ZRecoveryOverviewInput = z.object({ env: ZEnvInput });

export const ZRunSweepInput = z.object({
  env: ZEnvInput,
  /** How long a running episode must have been silent to count as orphaned; default 120 s. */
  staleAfterMs: z.number().int().min(1_000).max(86_400_000).optional(),
});
