import { z } from "zod";
import type { THistoryRecord } from "../history/records";

const ZTime = z.number().nullable();

export const ZEpisodeRow = z.object({
  id: z.string(),
  actor_id: z.string(),
  expectation_id: z.string(),
  status: z.string(),
  phase: z.string().nullable(),
  trigger_type: z.string(),
  dedupe_key: z.string().nullable(),
  input: z.unknown(),
  result: z.unknown(),
  error_class: z.string().nullable(),
  attempt: z.number(),
  executed_by: z.string().nullable(),
  // `policy` is absent from a restarted run's checkpoint resume entry (`resumed_from_checkpoint`),
  // which the durable-waits scenario's checkpointing episodes write.
  recovery_history: z.array(
    z.object({
      at: z.string(),
      node: z.string(),
      policy: z.string().optional(),
      outcome: z.string(),
    }),
  ),
  inserted_at: z.number(),
  started_at: ZTime,
  finished_at: ZTime,
});

export const ZStepRow = z.object({
  id: z.string(),
  episode_id: z.string(),
  attempt: z.number(),
  step_no: z.number(),
  outcome: z.string(),
  node: z.string().nullable(),
  inserted_at: z.number(),
});

export const ZClaimRow = z.object({
  dedupe_key: z.string(),
  state: z.string(),
  owner_node: z.string(),
  attempt: z.number(),
  steals: z.number(),
  error_detail: z.string().nullable(),
});

export const ZRequestRow = z.object({
  id: z.string(),
  episode_id: z.string(),
  status: z.string(),
  claimed_by: z.string().nullable(),
});

/**
 * A start of scenario 11's limited actor as the database saw it (db/limit-starts.jsonl): how many
 * of the actor's episodes were running in the start's transaction, under the limit's lock.
 */
export const ZLimitStartRow = z.object({
  episode_id: z.string(),
  attempt: z.number(),
  running: z.number(),
  limit_keys: z.array(z.string()).nullable(),
  at: z.number(),
});

export type LimitStartRow = z.infer<typeof ZLimitStartRow>;

/** An episode still open once the cluster settled, with what could own it (db/open.jsonl). */
export const ZOpenRow = z.object({
  id: z.string(),
  actor_id: z.string(),
  status: z.string(),
  trigger_type: z.string(),
  source_node: z.string().nullable(),
  executed_by: z.string().nullable(),
  queued_by: z.string().nullable(),
  /** `pending` or `claimed` when a trigger request still stands for it. */
  open_request: z.string().nullable(),
  request_claimed_by: z.string().nullable(),
  idle_ms: z.number(),
});

export type OpenRow = z.infer<typeof ZOpenRow>;
export type EpisodeRow = z.infer<typeof ZEpisodeRow>;
export type StepRow = z.infer<typeof ZStepRow>;
export type ClaimRow = z.infer<typeof ZClaimRow>;
export type RequestRow = z.infer<typeof ZRequestRow>;

/** What a scenario run wrote beside its history: its settings and what it measured itself. */
export const ZScenarioMeta = z.object({
  id: z.number().int(),
  name: z.string(),
  quick: z.boolean(),
  leaseSeconds: z.number(),
  staleAfterMs: z.number(),
  recoveryIntervalMs: z.number(),
  startedAt: z.number(),
  finishedAt: z.number(),
  /** Every episode reached a final status before the drain timeout. */
  drained: z.boolean(),
  drainMs: z.number(),
  /** How the wait after the scenario ended: all final, nothing moving any more, or the bound. */
  settled: z.enum(["drained", "stalled", "timed_out"]).optional(),
  /** How long nothing had to move for open work to count as settled. */
  stallMs: z.number().optional(),
  /**
   * When the wait after the scenario ended (ms since the epoch, the host's clock, which the
   * database shares): the cluster is stopped after it, and a cron window may fire while the
   * nodes drain.
   */
  settledAt: z.number().optional(),
  /** Worker identities alive when the open episodes were snapshot: the possible owners. */
  liveNodes: z.array(z.string()).optional(),
  /** Scenario-specific measurements (counts, durations in ms) and facts (victim identity...). */
  measured: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  /** Set when the scenario itself failed (a fault could not be applied, a wait timed out). */
  error: z.string().optional(),
});

export type ScenarioMeta = z.infer<typeof ZScenarioMeta>;

/** Everything the checker knows about one scenario run. */
export interface RunFacts {
  meta: ScenarioMeta;
  episodes: EpisodeRow[];
  steps: StepRow[];
  claims: ClaimRow[];
  requests: RequestRow[];
  /** Episodes open once the cluster settled (empty when it drained). */
  open: OpenRow[];
  /** Scenario 11's starts of its limited actor, from the database (empty elsewhere). */
  limitStarts: LimitStartRow[];
  /** Every process's history and the nemesis log, merged and sorted by time. */
  history: THistoryRecord[];
}

/** The Jepsen-style counts of one scenario, the columns of the report's table. */
export interface Counts {
  attempted: number;
  acknowledged: number;
  lost: number;
  duplicated: number;
  /** Episodes left pending or running without a live owner once the cluster settled. */
  stuck: number;
  fenced: number;
  recovered: number;
  unknown: number;
}

/** Counts before anything is counted (a scenario's start, or one that crashed). */
export function zeroCounts(): Counts {
  return {
    attempted: 0,
    acknowledged: 0,
    lost: 0,
    duplicated: 0,
    stuck: 0,
    fenced: 0,
    recovered: 0,
    unknown: 0,
  };
}

export interface ScenarioReport {
  id: number;
  name: string;
  counts: Counts;
  /** Scenario-specific figures, printed under the table. */
  details: Record<string, string | number>;
  /** Broken invariants besides lost and duplicated writes; any one fails the run. */
  violations: string[];
  passed: boolean;
}
