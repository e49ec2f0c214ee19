import { claimKeyOf } from "@cyclium/core/claims";
import type { TQueryable } from "../queryable";

export interface TEpisodeStep {
  id: string;
  attempt: number;
  stepNo: number;
  outcome: string;
  data: unknown;
  turns: number;
  tokens: number;
  durationMs: number;
  node: string | null;
  insertedAt: string;
}

export interface TEpisodeClaim {
  dedupeKey: string;
  state: string;
  ownerNode: string;
  attempt: number;
  steals: number;
  errorDetail: string | null;
  leaseUntil: string;
  /** By the database clock; negative once the lease has lapsed. */
  leaseRemainingMs: number;
  updatedAt: string;
}

export interface TEpisodeFindingRef {
  id: string;
  findingKey: string;
  class: string;
  severity: string;
  status: string;
  summary: string | null;
  updatedAt: string;
}

export interface TEpisodeTriggerRequestRef {
  id: string;
  status: string;
  sourceNode: string | null;
  claimedBy: string | null;
  insertedAt: string;
  completedAt: string | null;
}

export interface TEpisodeDetail {
  id: string;
  actorId: string;
  expectationId: string;
  status: string;
  phase: string | null;
  triggerType: string;
  dedupeKey: string | null;
  input: unknown;
  result: unknown;
  errorClass: string | null;
  errorMessage: string | null;
  attempt: number;
  turnsUsed: number;
  tokensUsed: number;
  sourceNode: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
  executedBy: string | null;
  workflowInstanceId: string | null;
  workflowStep: string | null;
  recoveryHistory: unknown[];
  insertedAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  archivedAt: string | null;
  checkpoints: number;
  steps: TEpisodeStep[];
  claim: TEpisodeClaim | null;
  findings: TEpisodeFindingRef[];
  triggerRequests: TEpisodeTriggerRequestRef[];
}

interface EpisodeRow {
  id: string;
  actor_id: string;
  expectation_id: string;
  status: string;
  phase: string | null;
  trigger_type: string;
  dedupe_key: string | null;
  input: unknown;
  result: unknown;
  error_class: string | null;
  error_message: string | null;
  attempt: number;
  turns_used: number;
  tokens_used: string;
  source_node: string | null;
  source_stack: string | null;
  source_env: string | null;
  executed_by: string | null;
  workflow_instance_id: string | null;
  workflow_step: string | null;
  recovery_history: unknown;
  inserted_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  archived_at: Date | null;
  checkpoints: number;
}

/** Steps beyond this are summarised; a runaway loop must not make the page unreadable. */
export const MAX_STEPS_SHOWN = 500;

/** Everything the episode page shows, or null for an unknown id. Five indexed reads. */
export async function getEpisodeDetail(options: {
  db: TQueryable;
  id: string;
}): Promise<TEpisodeDetail | null> {
  const { db, id } = options;
  const { rows } = await db.query<EpisodeRow>(
    `SELECT e.*, (SELECT count(*)::int FROM cyclium_episode_checkpoints c
                   WHERE c.episode_id = e.id) AS checkpoints
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
    id: row.id,
    actorId: row.actor_id,
    expectationId: row.expectation_id,
    status: row.status,
    phase: row.phase,
    triggerType: row.trigger_type,
    dedupeKey: row.dedupe_key,
    input: row.input,
    result: row.result,
    errorClass: row.error_class,
    errorMessage: row.error_message,
    attempt: row.attempt,
    turnsUsed: row.turns_used,
    tokensUsed: Number(row.tokens_used),
    sourceNode: row.source_node,
    sourceStack: row.source_stack,
    sourceEnv: row.source_env,
    executedBy: row.executed_by,
    workflowInstanceId: row.workflow_instance_id,
    workflowStep: row.workflow_step,
    recoveryHistory: Array.isArray(row.recovery_history) ? row.recovery_history : [],
    insertedAt: row.inserted_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    archivedAt: row.archived_at?.toISOString() ?? null,
    checkpoints: row.checkpoints,
    steps,
    claim,
    findings,
    triggerRequests,
  };
}

async function readSteps(db: TQueryable, episodeId: string): Promise<TEpisodeStep[]> {
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
    insertedAt: step.inserted_at.toISOString(),
  }));
}

async function readClaim(db: TQueryable, dedupeKey: string): Promise<TEpisodeClaim | null> {
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
  if (claim === undefined) return null;
  return {
    dedupeKey: claim.dedupe_key,
    state: claim.state,
    ownerNode: claim.owner_node,
    attempt: claim.attempt,
    steals: claim.steals,
    errorDetail: claim.error_detail,
    leaseUntil: claim.lease_until.toISOString(),
    leaseRemainingMs: Math.round(claim.lease_remaining_ms),
    updatedAt: claim.updated_at.toISOString(),
  };
}

async function readFindings(db: TQueryable, episodeId: string): Promise<TEpisodeFindingRef[]> {
  // No index on cyclium_findings.episode_id: findings are few (one active row per key and env
  // plus history); a sequential scan of them stays cheap.
  const { rows } = await db.query<{
    id: string;
    finding_key: string;
    class: string;
    severity: string;
    status: string;
    summary: string | null;
    updated_at: Date;
  }>(
    `SELECT id, finding_key, class, severity, status, summary, updated_at
       FROM cyclium_findings WHERE episode_id = $1 ORDER BY updated_at DESC LIMIT 50`,
    [episodeId],
  );
  return rows.map((finding) => ({
    id: finding.id,
    findingKey: finding.finding_key,
    class: finding.class,
    severity: finding.severity,
    status: finding.status,
    summary: finding.summary,
    updatedAt: finding.updated_at.toISOString(),
  }));
}

async function readTriggerRequests(
  db: TQueryable,
  episodeId: string,
): Promise<TEpisodeTriggerRequestRef[]> {
  const { rows } = await db.query<{
    id: string;
    status: string;
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
    insertedAt: request.inserted_at.toISOString(),
    completedAt: request.completed_at?.toISOString() ?? null,
  }));
}
