import { z } from "zod";
import { ZRole } from "../../auth/principal";

export const ZSessionOutput = z
  .object({
    kind: z.enum(["user", "token"]),
    id: z.string(),
    name: z.string(),
    role: ZRole,
  })
  .nullable();

export type TSessionOutput = z.infer<typeof ZSessionOutput>;
