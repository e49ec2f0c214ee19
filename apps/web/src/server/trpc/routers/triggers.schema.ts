import { z } from "zod";
import { ZEnvInput, ZName } from "./shared.schema";

export const ZTriggerListInput = z.object({ env: ZEnvInput });

export const ZTriggerInspectInput = z.object({
  env: ZEnvInput,
  name: ZName,
  firings: z.number().int().min(1).max(200).default(30),
});

export const ZTriggerActionInput = z.object({ env: ZEnvInput, name: ZName });

export const ZTriggerFireInput = z.object({
  env: ZEnvInput,
  name: ZName,
  context: z
    .record(z.string(), z.unknown())
    .optional()
    .refine(
      (value) => JSON.stringify(value ?? {}).length <= 65_536,
      "context is larger than 64 KiB",
    ),
});
