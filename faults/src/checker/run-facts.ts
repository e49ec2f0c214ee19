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
  recovery_history: z.array(
    z.object({ at: z.string(), node: z.string(), policy: z.string(), outcome: z.string() }),
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
  /** Every process's history and the nemesis log, merged and sorted by time. */
  history: THistoryRecord[];
}

/** The Jepsen-style counts of one scenario, the columns of the report's table. */
export interface Counts {
  attempted: number;
  acknowledged: number;
  lost: number;
  duplicated: number;
  fenced: number;
  recovered: number;
  unknown: number;
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
