import type { Queryable } from "../../db/index";
import { keysetWalk, type KeysetPage, type KeysetPageOptions } from "../../paging/index";
import { SqlParams } from "../../scope/index";
import type { ClaimState } from "../work-claims";
import type { WorkClaimModel } from "@cyclium/db/models";
import type { Narrow, RowOf } from "../../db/row-of";
import { summariseEpisodeLeases } from "./list-episode-leases";

export interface WorkClaimItem {
  id: string;
  dedupeKey: string;
  /** The env folded into the key (`…@env`), null for the unset env. */
  env: string | null;
  state: ClaimState;
  ownerNode: string;
  attempt: number;
  steals: number;
  errorDetail: string | null;
  leaseUntil: Date;
  /** Database clock; negative once lapsed. */
  leaseRemainingMs: number;
  ageMs: number;
  insertedAt: Date;
  updatedAt: Date;
  /** The episode the key belongs to, when it names one in the episodes table. */
  episodeId: string | null;
}

export interface WorkClaimFilters {
  env: string | null;
  state?: ClaimState | undefined;
  ownerNode?: string | undefined;
  /** Only `claimed` rows whose lease has run out (waiting to be stolen or reclaimed). */
  lapsedOnly?: boolean | undefined;
}

export interface WorkClaimSummary {
  /** Held with a running lease. */
  claimed: number;
  /** Still `claimed` but past lease_until: the holder stopped renewing (dead or partitioned). */
  lapsed: number;
  /** Held claims that were taken over at least once. */
  stolen: number;
}

type ClaimRow = Narrow<RowOf<WorkClaimModel>, { state: ClaimState }> & {
  lease_remaining_ms: number;
  age_ms: number;
  episode_id: string | null;
  cursor_at: string;
};

/**
 * Claims carry no env column: the env is folded into the dedupe key as an `@env` suffix
 * (SPEC section 3), so a claim's env is read from its key. Keys of the unset env have no `@`.
 */
function envOfKeySql(env: string | null, params: SqlParams): string {
  if (env === null) return "position('@' in dedupe_key) = 0";
  const suffix = params.add(`@${env}`);
  return `right(dedupe_key, length(${suffix})) = ${suffix}`;
}

export function envOfDedupeKey(key: string): string | null {
  const at = key.lastIndexOf("@");
  return at < 0 ? null : key.slice(at + 1);
}

/** Claims by last change, newest first (index cyclium_work_claims_updated_at_id_idx). */
export async function listWorkClaims(
  options: KeysetPageOptions & { db: Queryable; filters: WorkClaimFilters },
): Promise<KeysetPage<WorkClaimItem>> {
  const params = new SqlParams();
  const walk = keysetWalk(options, params, { at: "updated_at", id: "id", idType: "bigint" });
  const where = [envOfKeySql(options.filters.env, params)];
  if (options.filters.state !== undefined)
    where.push(`state = ${params.add(options.filters.state)}`);
  if (options.filters.ownerNode !== undefined) {
    where.push(`owner_node = ${params.add(options.filters.ownerNode)}`);
  }
  if (options.filters.lapsedOnly === true) where.push("state = 'claimed' AND lease_until < now()");
  if (walk.after !== null) where.push(walk.after);
  const order = walk.order;
  const { rows } = await options.db.query<ClaimRow>(
    `SELECT c.id::text, c.dedupe_key, c.state, c.owner_node, c.attempt, c.steals, c.error_detail,
            c.lease_until, c.inserted_at, c.updated_at,
            (extract(epoch FROM c.lease_until - now()) * 1000)::float8 AS lease_remaining_ms,
            (extract(epoch FROM now() - c.inserted_at) * 1000)::float8 AS age_ms,
            ${walk.cursorAt} AS cursor_at,
            e.id AS episode_id
       FROM (SELECT * FROM cyclium_work_claims WHERE ${where.join(" AND ")}
              ORDER BY updated_at ${order}, id ${order} LIMIT ${walk.limit}) c
       -- Two indexed probes: the live episode with this dedupe key, or the episode an
       -- \`episode:{id}\` key names (a manual fire without idempotency key).
       LEFT JOIN LATERAL (
         SELECT coalesce(
           (SELECT id FROM cyclium_episodes
             WHERE dedupe_key = c.dedupe_key AND archived_at IS NULL LIMIT 1),
           (SELECT id FROM cyclium_episodes
             WHERE id = (CASE WHEN c.dedupe_key ~ '^episode:[0-9a-f-]{36}$'
                              THEN substr(c.dedupe_key, 9)::uuid END))) AS id) e ON true
      ORDER BY c.updated_at ${order}, c.id ${order}`,
    params.values,
  );
  return walk.page(rows.map((row) => ({ item: toItem(row), cursorAt: row.cursor_at })));
}

function toItem(row: ClaimRow): WorkClaimItem {
  return {
    id: row.id,
    dedupeKey: row.dedupe_key,
    env: envOfDedupeKey(row.dedupe_key),
    state: row.state,
    ownerNode: row.owner_node,
    attempt: row.attempt,
    steals: row.steals,
    errorDetail: row.error_detail,
    leaseUntil: row.lease_until,
    leaseRemainingMs: Math.round(row.lease_remaining_ms),
    ageMs: Math.round(row.age_ms),
    insertedAt: row.inserted_at,
    updatedAt: row.updated_at,
    episodeId: row.episode_id,
  };
}

/**
 * Held claims only, claim rows and episodes holding their own lease: the table keeps a row per dedupe key forever (done/failed rows are history),
 * so counting every state would scan a table as large as the episodes table. Held rows are few
 * and found through the partial cyclium_work_claims_claimed_idx.
 */
export async function summariseWorkClaims(options: {
  db: Queryable;
  env: string | null;
}): Promise<WorkClaimSummary> {
  const params = new SqlParams();
  const scope = envOfKeySql(options.env, params);
  const { rows } = await options.db.query<WorkClaimSummary>(
    `SELECT count(*) FILTER (WHERE lease_until >= now())::int AS claimed,
            count(*) FILTER (WHERE lease_until < now())::int AS lapsed,
            count(*) FILTER (WHERE steals > 0)::int AS stolen
       FROM cyclium_work_claims WHERE state = 'claimed' AND ${scope}`,
    params.values,
  );
  const claimRows = rows[0] ?? { claimed: 0, lapsed: 0, stolen: 0 };
  // Episodes holding their own lease count as held claims (SPEC section 4); a steal of one shows
  // as its attempt, not in `stolen` (the row keeps no count of steals).
  const inRow = await summariseEpisodeLeases(options);
  return {
    claimed: claimRows.claimed + inRow.claimed,
    lapsed: claimRows.lapsed + inRow.lapsed,
    stolen: claimRows.stolen,
  };
}
