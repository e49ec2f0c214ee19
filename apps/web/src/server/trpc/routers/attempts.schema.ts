import { z } from "zod";
import { ZUuid } from "./shared.schema";

export const ZEpisodeAttemptsInput = z.object({ id: ZUuid });
export type TEpisodeAttemptsInput = z.infer<typeof ZEpisodeAttemptsInput>;

export const ZRetryWithInputInput = z.object({
  id: ZUuid,
  /** The edited input: a JSON object of at most 64 KiB, like a fire's. */
  input: z
    .record(z.string(), z.unknown())
    .refine((value) => JSON.stringify(value).length <= 65_536, "input is larger than 64 KiB"),
});
export type TRetryWithInputInput = z.infer<typeof ZRetryWithInputInput>;
