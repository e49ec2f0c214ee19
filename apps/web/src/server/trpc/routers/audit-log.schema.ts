import { z } from "zod";
import { ZName, pageInput } from "./shared.schema";

export const ZAuditListInput = z.object({
  action: z.string().trim().min(1).max(128).optional(),
  principal: ZName.optional(),
  outcome: z.enum(["ok", "refused", "error"]).optional(),
  target: z.string().trim().min(1).max(512).optional(),
  ...pageInput("bigint"),
});
