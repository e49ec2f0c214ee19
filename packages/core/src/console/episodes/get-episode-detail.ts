import { claimKeyOf } from "../../claims/claim-key";
import type { WorkClaimItem } from "../../claims/queries/index";
import { CLAIM_STATES, type ClaimState } from "../../claims/work-claims";
import type { Queryable } from "../../db/index";
import {
  findingColumns,
  toFinding,
  type Finding,
  type FindingRow,
} from "../../findings/finding-row";
import type { TriggerRequestStatus } from "../../deferred/trigger-request";
import {
  episodeColumns,
  toEpisode,
  type Episode,
  type EpisodeRow,
} from "../../episodes/episode-row";
import type { JournalStep } from "../../episodes/journal-step";

/** One entry of the episode's step journal (cyclium_episode_steps), as stored. */
export interface EpisodeStep extends JournalStep {
  id: string;
  attempt: number;
  node: string | null;
  insertedAt: Date;
}

/** The work claim the episode runs under, as the episode page shows it. */
export type EpisodeClaim = Pick<
  WorkClaimItem,
  | "dedupeKey"
  | "state"
  | "ownerNode"
  | "attempt"
  | "steals"
  | "errorDetail"
  | "leaseUntil"
  | "leaseRemainingMs"
  | "updatedAt"
>;

export interface EpisodeTriggerRequestRef {
  id: string;
  status: TriggerRequestStatus;
  sourceNode: string | null;
  claimedBy: string | null;
  insertedAt: Date;
  completedAt: Date | null;
}

export interface EpisodeDetail extends Episode {
  recoveryHistory: unknown[];
  checkpoints: number;
  steps: EpisodeStep[];
  claim: EpisodeClaim | null;
  findings: Finding[];
  triggerRequests: EpisodeTriggerRequestRef[];
}

export interface GetEpisodeDetailOptions {
  db: Queryable;
  id: string;
}

/** Steps beyond this are summarised; a runaway loop must not make the page unreadable. */
export const MAX_STEPS_SHOWN = 500;

/** Everything the episode page shows, or null for an unknown id. Five indexed reads. */
export async function getEpisodeDetail({
  db,
  id,
}: GetEpisodeDetailOptions): Promise<EpisodeDetail | null> {
  const { rows } = await db.query<
    EpisodeRow & InRowLease & { recovery_history: unknown; checkpoints: number }
  >(
    `SELECT ${episodeColumns("e")}, e.recovery_history,
            (SELECT count(*)::int FROM cyclium_episode_checkpoints c
              WHERE c.episode_id = e.id) AS checkpoints,
            e.lease_until AS row_lease_until,
            (extract(epoch FROM e.lease_until - now()) * 1000)::float8 AS row_lease_remaining_ms
       FROM cyclium_episodes e WHERE e.id = $1`,
    [id],
  );
  const row = rows[0];
  if (row === undefined) return null;
  const [steps, claim, findings, triggerRequests] = await Promise.all([
    readSteps(db, id),
    readClaim(db, claimKeyOf({ id, dedupeKey: row.dedupe_key })),
    readFindings(db, id),
    readTriggerRequests(db, id),
  ]);
  return {
    ...toEpisode(row),
    recoveryHistory: Array.isArray(row.recovery_history) ? row.recovery_history : [],
    checkpoints: row.checkpoints,
    steps,
    claim: claim ?? inRowClaim(row),
    findings,
    triggerRequests,
  };
}

async function readSteps(db: Queryable, episodeId: string): Promise<EpisodeStep[]> {
  const { rows } = await db.query<{
    id: string;
    attempt: number;
    step_no: number;
    outcome: string;
    data: unknown;
    turns: number;
    tokens: number;
    duration_ms: number;
    node: string | null;
    inserted_at: Date;
  }>(
    `SELECT id, attempt, step_no, outcome, data, turns, tokens, duration_ms, node, inserted_at
       FROM cyclium_episode_steps WHERE episode_id = $1
      ORDER BY attempt, step_no LIMIT $2`,
    [episodeId, MAX_STEPS_SHOWN],
  );
  return rows.map((step) => ({
    id: step.id,
    attempt: step.attempt,
    stepNo: step.step_no,
    outcome: step.outcome,
    data: step.data,
    turns: step.turns,
    tokens: step.tokens,
    durationMs: step.duration_ms,
    node: step.node,
    insertedAt: step.inserted_at,
  }));
}

async function readClaim(db: Queryable, dedupeKey: string): Promise<EpisodeClaim | null> {
  const { rows } = await db.query<{
    dedupe_key: string;
    state: string;
    owner_node: string;
    attempt: number;
    steals: number;
    error_detail: string | null;
    lease_until: Date;
    lease_remaining_ms: number;
    updated_at: Date;
  }>(
    `SELECT dedupe_key, state, owner_node, attempt, steals, error_detail, lease_until, updated_at,
            (extract(epoch FROM lease_until - now()) * 1000)::float8 AS lease_remaining_ms
       FROM cyclium_work_claims WHERE dedupe_key = $1`,
    [dedupeKey],
  );
  const claim = rows[0];
  if (claim === undefined || !isClaimState(claim.state)) return null;
  return {
    dedupeKey: claim.dedupe_key,
    state: claim.state,
    ownerNode: claim.owner_node,
    attempt: claim.attempt,
    steals: claim.steals,
    errorDetail: claim.error_detail,
    leaseUntil: claim.lease_until,
    leaseRemainingMs: Math.round(claim.lease_remaining_ms),
    updatedAt: claim.updated_at,
  };
}

interface InRowLease {
  row_lease_until: Date | null;
  row_lease_remaining_ms: number | null;
}

/**
 * With the built-in claims an episode's run holds its lease in its own row (SPEC section 4), so
 * no claim row exists: the card shows the row's owner (`executed_by`), its attempt (the fencing
 * token) and, while running, its lease. An ended run reads as `done` or `failed`, as a released
 * claim row would; an in-row steal is not counted (the attempt says it).
 */
function inRowClaim(row: EpisodeRow & InRowLease): EpisodeClaim | null {
  if (row.executed_by === null) return null;
  const held = row.row_lease_until !== null;
  const state: ClaimState = held
    ? "claimed"
    : row.status === "completed"
      ? "done"
      : row.status === "failed"
        ? "failed"
        : "expired";
  if (!held && row.finished_at === null && row.status !== "running") return null;
  return {
    dedupeKey: claimKeyOf({ id: row.id, dedupeKey: row.dedupe_key }),
    state,
    ownerNode: row.executed_by,
    attempt: row.attempt,
    steals: 0,
    errorDetail: null,
    leaseUntil: row.row_lease_until ?? row.finished_at ?? row.updated_at,
    leaseRemainingMs: Math.round(row.row_lease_remaining_ms ?? 0),
    updatedAt: row.updated_at,
  };
}

function isClaimState(state: string): state is ClaimState {
  return (CLAIM_STATES as readonly string[]).includes(state);
}

async function readFindings(db: Queryable, episodeId: string): Promise<Finding[]> {
  // No index on cyclium_findings.episode_id: findings are few (one active row per key and env
  // plus history); a sequential scan of them stays cheap.
  const { rows } = await db.query<FindingRow>(
    `SELECT ${findingColumns()}
       FROM cyclium_findings WHERE episode_id = $1 ORDER BY updated_at DESC LIMIT 50`,
    [episodeId],
  );
  return rows.map(toFinding);
}

async function readTriggerRequests(
  db: Queryable,
  episodeId: string,
): Promise<EpisodeTriggerRequestRef[]> {
  const { rows } = await db.query<{
    id: string;
    status: TriggerRequestStatus;
    source_node: string | null;
    claimed_by: string | null;
    inserted_at: Date;
    completed_at: Date | null;
  }>(
    `SELECT id::text, status, source_node, claimed_by, inserted_at, completed_at
       FROM cyclium_trigger_requests WHERE episode_id = $1 ORDER BY inserted_at DESC LIMIT 20`,
    [episodeId],
  );
  return rows.map((request) => ({
    id: request.id,
    status: request.status,
    sourceNode: request.source_node,
    claimedBy: request.claimed_by,
    insertedAt: request.inserted_at,
    completedAt: request.completed_at,
  }));
}
