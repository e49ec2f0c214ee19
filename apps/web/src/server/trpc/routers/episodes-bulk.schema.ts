import { z } from "zod";
import { ZEpisodeFilterInput } from "./episodes.schema";

export const ZBulkCommand = z.enum(["retry", "cancel", "archive"]);

export const ZEpisodeBulkPreviewInput = ZEpisodeFilterInput.extend({ command: ZBulkCommand });
export type TEpisodeBulkPreviewInput = z.infer<typeof ZEpisodeBulkPreviewInput>;

/** A bulk command runs on every episode the filter matches; the filter is all it takes. */
export const ZEpisodeBulkInput = ZEpisodeFilterInput;
