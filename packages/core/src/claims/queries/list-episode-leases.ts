import type { Queryable } from "../../db/index";
import { envScopeSql, SqlParams } from "../../scope/index";

/**
 * An episode holding its own lease (SPEC section 4): the Work claims page lists these beside the
 * claim rows, as what a claim row of the episode's key would have shown.
 */
export interface EpisodeLeaseItem {
  episodeId: string;
  actorId: string;
  expectationId: string;
  /** The key a claim row of this episode would carry (its dedupe key, or `episode:{id}`). */
  claimKey: string;
  ownerNode: string;
  /** The fencing token. */
  attempt: number;
  leaseUntil: Date;
  /** Database clock; negative once lapsed (stealable, and recovery's once stale). */
  leaseRemainingMs: number;
  startedAt: Date | null;
}

export interface EpisodeLeaseSummary {
  claimed: number;
  lapsed: number;
}

type LeaseRow = {
  id: string;
  actor_id: string;
  expectation_id: string;
  claim_key: string;
  executed_by: string;
  attempt: number;
  lease_until: Date;
  lease_remaining_ms: number;
  started_at: Date | null;
};

/**
 * The running episodes of an env that hold their own lease, lapsed ones first. Reached through
 * cyclium_episodes_running_idx (running, unarchived): as many rows as episodes running, not the
 * history, so a plain limit replaces paging.
 */
export async function listEpisodeLeases(options: {
  db: Queryable;
  env: string | null;
  limit?: number;
}): Promise<EpisodeLeaseItem[]> {
  const params = new SqlParams();
  const env = envScopeSql("source_env", options.env, params);
  const limit = params.add(Math.min(Math.max(options.limit ?? 100, 1), 500));
  const { rows } = await options.db.query<LeaseRow>(
    `SELECT id::text, actor_id, expectation_id, executed_by, attempt, lease_until, started_at,
            COALESCE(dedupe_key, 'episode:' || id::text) AS claim_key,
            (extract(epoch FROM lease_until - now()) * 1000)::float8 AS lease_remaining_ms
       FROM cyclium_episodes
      WHERE status = 'running' AND archived_at IS NULL AND lease_until IS NOT NULL
        AND executed_by IS NOT NULL AND ${env}
      ORDER BY lease_until, id
      LIMIT ${limit}`,
    params.values,
  );
  return rows.map((row) => ({
    episodeId: row.id,
    actorId: row.actor_id,
    expectationId: row.expectation_id,
    claimKey: row.claim_key,
    ownerNode: row.executed_by,
    attempt: row.attempt,
    leaseUntil: row.lease_until,
    leaseRemainingMs: Math.round(row.lease_remaining_ms),
    startedAt: row.started_at,
  }));
}

/** Episode leases held and lapsed, counted as the held claim rows are (summariseWorkClaims). */
export async function summariseEpisodeLeases(options: {
  db: Queryable;
  env: string | null;
}): Promise<EpisodeLeaseSummary> {
  const params = new SqlParams();
  const env = envScopeSql("source_env", options.env, params);
  const { rows } = await options.db.query<EpisodeLeaseSummary>(
    `SELECT count(*) FILTER (WHERE lease_until >= now())::int AS claimed,
            count(*) FILTER (WHERE lease_until < now())::int AS lapsed
       FROM cyclium_episodes
      WHERE status = 'running' AND archived_at IS NULL AND lease_until IS NOT NULL AND ${env}`,
    params.values,
  );
  return rows[0] ?? { claimed: 0, lapsed: 0 };
}
