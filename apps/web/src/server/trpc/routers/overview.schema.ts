import { z } from "zod";

export const ZOverviewStatsInput = z
  .object({
    /**
     * Which env to read. Omitted: this console's env. `null`: the unset env (SPEC section 8
     * matches env strictly, so the unset env is a world of its own).
     */
    env: z.string().trim().min(1).max(255).nullable().optional(),
  })
  .optional();

export type TOverviewStatsInput = z.infer<typeof ZOverviewStatsInput>;

const count = z.number().int().nonnegative();

export const ZEpisodeStatusCounts = z.object({
  pending: count,
  running: count,
  waiting: count,
  completed: count,
  failed: count,
  cancelled: count,
  total: count,
  capped: z.array(z.enum(["pending", "running", "waiting", "completed", "failed", "cancelled"])),
});

export const ZLiveNode = z.object({
  identity: z.string(),
  kind: z.string(),
  mode: z.string(),
  stack: z.string().nullable(),
  env: z.string().nullable(),
  host: z.string().nullable(),
  pid: z.number().int().nullable(),
  version: z.string().nullable(),
  status: z.string(),
  startedAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  lastSeenAgoMs: z.number().nonnegative(),
  uptimeMs: z.number().nonnegative(),
});

export const ZOverviewStats = z.object({
  env: z.string().nullable(),
  episodes: ZEpisodeStatusCounts,
  nodes: z.array(ZLiveNode),
  liveWindowSeconds: z.number().int().positive(),
  generatedAt: z.iso.datetime(),
});

export type TOverviewStats = z.infer<typeof ZOverviewStats>;
export type TLiveNode = z.infer<typeof ZLiveNode>;
export type TEpisodeStatusCounts = z.infer<typeof ZEpisodeStatusCounts>;
