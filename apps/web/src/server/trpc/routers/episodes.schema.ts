import { EPISODE_STATUSES, TRIGGER_TYPES } from "@cyclium/core/episodes";
import { z } from "zod";
import { ZEnvInput, ZName, pageInput, ZUuid } from "./shared.schema";

export const ZEpisodeListInput = z.object({
  env: ZEnvInput,
  actorId: ZName.optional(),
  expectationId: ZName.optional(),
  status: z.enum(EPISODE_STATUSES).optional(),
  triggerType: z.enum(TRIGGER_TYPES).optional(),
  stack: ZName.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  archived: z.boolean().optional(),
  ...pageInput("uuid"),
});
export type TEpisodeListInput = z.infer<typeof ZEpisodeListInput>;

export const ZEpisodeFacetsInput = z.object({ env: ZEnvInput });

export const ZEpisodeIdInput = z.object({ id: ZUuid });
export type TEpisodeIdInput = z.infer<typeof ZEpisodeIdInput>;
