import { z } from "zod";
import { ZTenantParams } from "./trigger-endpoints.schema";

/** `.../episodes/{id}/signals/{name}`: the episode and the signal its expectation declares. */
export const ZEpisodeSignalParams = ZTenantParams.extend({
  id: z.uuid(),
  name: z.string().min(1).max(255),
});
export type TEpisodeSignalParams = z.infer<typeof ZEpisodeSignalParams>;

/**
 * `POST .../signals/{name}` body: the payload, validated against the signal's schema, and an
 * optional idempotency key (a second delivery with the same key changes nothing).
 */
export const ZSignalBody = z.strictObject({
  payload: z.unknown().optional(),
  idempotencyKey: z.string().trim().min(1).max(255).optional(),
});

/** The answer: kept (and `woke`: it resumes now), or a duplicate of an earlier delivery. */
export const ZSignalAnswer = z.strictObject({
  kind: z.enum(["delivered", "duplicate"]),
  signal_id: z.string(),
  woke: z.boolean(),
});
