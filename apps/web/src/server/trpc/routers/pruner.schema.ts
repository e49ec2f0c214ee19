import { z } from "zod";

export const ZPrunerOverviewInput = z.object({
  limit: z.number().int().min(1).max(100).default(20),
});

export const ZRunPrunerInput = z.object({});
