import { EPISODE_STATUSES, TRIGGER_TYPES } from "@cyclium/core/console";
import { z } from "zod";
import { MAX_SEARCH_LENGTH } from "../../../lib/episode-search/parse-episode-search";
import { ZEnvInput, ZName, pageInput, ZUuid } from "./shared.schema";

/** Which episodes: the list's selects and its search (`q`, docs/console-search.md). */
const episodeFilterInput = {
  env: ZEnvInput,
  actorId: ZName.optional(),
  expectationId: ZName.optional(),
  status: z.enum(EPISODE_STATUSES).optional(),
  triggerType: z.enum(TRIGGER_TYPES).optional(),
  stack: ZName.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  archived: z.boolean().optional(),
  /** Failed after more than one attempt: retries used up. */
  exhausted: z.boolean().optional(),
  q: z.string().max(MAX_SEARCH_LENGTH).optional(),
};

export const ZEpisodeFilterInput = z.object(episodeFilterInput);
export type TEpisodeFilterInput = z.infer<typeof ZEpisodeFilterInput>;

export const ZEpisodeListInput = z.object({ ...episodeFilterInput, ...pageInput("uuid") });
export type TEpisodeListInput = z.infer<typeof ZEpisodeListInput>;

export const ZEpisodeFacetsInput = z.object({ env: ZEnvInput });

export const ZEpisodeIdInput = z.object({ id: ZUuid });

/** An operator's signal to an episode (durable waits): its name and payload as the form built it. */
export const ZEpisodeSignalInput = z.object({
  id: ZUuid,
  name: z.string().min(1).max(255),
  payload: z.unknown(),
  idempotencyKey: z.string().trim().min(1).max(255).optional(),
});
export type TEpisodeIdInput = z.infer<typeof ZEpisodeIdInput>;

/** A page of episode ids whose wait reasons the list shows (its pending rows). */
export const ZEpisodeIdsInput = z.object({ ids: z.array(ZUuid).max(200) });
export type TEpisodeIdsInput = z.infer<typeof ZEpisodeIdsInput>;
