import { z } from "zod";

/**
 * What the orchestrator asks of a cluster process, one JSON line on its stdin each; the process
 * answers `{ reply: id, ok, result | error }` on stdout. Unsolicited lines are `{ event }`.
 */
export const ZFireBatch = z.object({
  cmd: z.literal("fire-batch"),
  /** Operation keys are `${prefix}-${i}` for i in [0, count). */
  prefix: z.string().min(1),
  count: z.number().int().min(0),
  /** Pace: fires start at this rate (per second) with at most `concurrency` in flight. */
  ratePerSec: z.number().positive(),
  concurrency: z.number().int().positive(),
  /** Every `failEvery`-th fire goes to the fail-policy actor, the rest to the restart one. */
  failEvery: z.number().int().min(0),
  /** When set, fire `i` goes to `actors[i % length]` instead (the queued actors of 8-10). */
  actors: z.array(z.string()).min(1).optional(),
  input: z.record(z.string(), z.unknown()),
  /** A fire whose outcome is unknown is retried with the same key until this long has passed. */
  retryForMs: z.number().int().positive(),
});

export const ZFireOne = z.object({
  cmd: z.literal("fire"),
  actor: z.string(),
  key: z.string(),
  input: z.record(z.string(), z.unknown()),
});

export const ZPublishBatch = z.object({
  cmd: z.literal("publish-batch"),
  topic: z.string(),
  prefix: z.string(),
  count: z.number().int().min(0),
  concurrency: z.number().int().positive(),
  /** Strategy input merged into each event's payload (default two steps of 10 ms). */
  input: z.record(z.string(), z.unknown()).optional(),
});

// `probeId`, not `id`: the envelope's `id` numbers the request.
export const ZProbe = z.object({ cmd: z.literal("probe"), probeId: z.string() });
export const ZStop = z.object({ cmd: z.literal("stop") });

export const ZCommand = z.discriminatedUnion("cmd", [
  ZFireBatch,
  ZFireOne,
  ZPublishBatch,
  ZProbe,
  ZStop,
]);

export type TCommand = z.infer<typeof ZCommand>;
export type TFireBatch = z.infer<typeof ZFireBatch>;
export type TFireOne = z.infer<typeof ZFireOne>;
export type TPublishBatch = z.infer<typeof ZPublishBatch>;

export const ZEnvelope = z.object({ id: z.number().int() }).and(ZCommand);

/** The tally a fire batch replies with. */
export interface FireBatchResult {
  ok: number;
  failed: number;
  unknown: number;
}
