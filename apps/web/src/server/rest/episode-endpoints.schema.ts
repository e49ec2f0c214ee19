import { EPISODE_WAIT_REASONS } from "@cyclium/core/console";
import { z } from "zod";
import { ZTenantParams } from "./trigger-endpoints.schema";

/** `{t}` and `{id}`: the episode. */
export const ZEpisodeParams = ZTenantParams.extend({ id: z.uuid() });
export type TEpisodeParams = z.infer<typeof ZEpisodeParams>;

/** Why a pending episode waits: the console's "Why it waits", field for field. */
export const ZWaitReason = z.object({
  code: z.enum(EPISODE_WAIT_REASONS),
  message: z.string().describe("One sentence an operator can act on."),
  candidates: z.array(z.string()).describe("Nodes that could take it (or hold its limit)."),
  queue: z
    .object({
      node: z.string(),
      position: z.number().int(),
      running: z.number().int(),
      limit: z.number().int().nullable(),
    })
    .nullable()
    .describe("When a node's queue holds it: where, its place in line, that node's slots."),
});

export const ZEpisodeWaitAnswer = z.object({
  tenant_id: z.string(),
  episode_id: z.string(),
  status: z.string(),
  wait_reason: ZWaitReason.nullable().describe("Null unless the episode is pending."),
});

/** `.../episodes/{id}/signals/{name}`: the episode and the signal its expectation declares. */
export const ZEpisodeSignalParams = ZEpisodeParams.extend({
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
