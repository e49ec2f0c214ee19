import type { Queryable } from "../../db/index";
import type { EpisodeStatus } from "../../episodes/episode-row";
import { listClusterModes } from "../../nodes/queries/index";
import { keysetWalk, type KeysetPage, type KeysetPageOptions } from "../../paging/index";
import { envScopeSql, SqlParams } from "../../scope/index";
import type { TriggerRequestStatus } from "../../deferred/trigger-request";
import { explainPendingRequest, type PendingReason } from "../../reasons/index";
import type { TriggerRequestModel } from "@cyclium/db/models";
import type { Narrow, RowOf } from "../../db/row-of";

export interface TriggerRequestItem {
  id: string;
  episodeId: string;
  actorId: string;
  expectationId: string;
  status: TriggerRequestStatus;
  sourceNode: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
  claimedBy: string | null;
  claimedAt: Date | null;
  completedAt: Date | null;
  insertedAt: Date;
  /** Database clock: how long it has existed. */
  ageMs: number;
  episodeStatus: EpisodeStatus | null;
  /** Only for pending requests: why no worker has taken it yet. */
  pendingReason: PendingReason | null;
}

export interface TriggerRequestFilters {
  env: string | null;
  status?: TriggerRequestStatus | undefined;
  actorId?: string | undefined;
}

type RequestRow = Narrow<
  Pick<
    RowOf<TriggerRequestModel>,
    | "id"
    | "episode_id"
    | "actor_id"
    | "expectation_id"
    | "status"
    | "source_node"
    | "source_stack"
    | "source_env"
    | "claimed_by"
    | "claimed_at"
    | "completed_at"
    | "inserted_at"
  >,
  { status: TriggerRequestStatus }
> & { age_ms: number; episode_status: EpisodeStatus | null; cursor_at: string };

export async function listTriggerRequests(
  options: KeysetPageOptions & { db: Queryable; filters: TriggerRequestFilters },
): Promise<KeysetPage<TriggerRequestItem> & { pending: number; claimed: number }> {
  const params = new SqlParams();
  const walk = keysetWalk(options, params, { at: "r.inserted_at", id: "r.id", idType: "bigint" });
  const where = [envScopeSql("r.source_env", options.filters.env, params)];
  if (options.filters.status !== undefined) {
    where.push(`r.status = ${params.add(options.filters.status)}`);
  }
  if (options.filters.actorId !== undefined) {
    where.push(`r.actor_id = ${params.add(options.filters.actorId)}`);
  }
  if (walk.after !== null) where.push(walk.after);
  // Env first in the ORDER BY, to walk cyclium_trigger_requests_env_inserted_at_id_idx (see
  // migration 20261130000100).
  const countParams = new SqlParams();
  const countScope = envScopeSql("source_env", options.filters.env, countParams);
  const [{ rows }, counts, cluster] = await Promise.all([
    options.db.query<RequestRow>(
      `SELECT r.id::text, r.episode_id, r.actor_id, r.expectation_id, r.status, r.source_node,
              r.source_stack, r.source_env, r.claimed_by, r.claimed_at, r.completed_at,
              r.inserted_at, e.status AS episode_status,
              greatest(0, extract(epoch FROM now() - r.inserted_at) * 1000)::float8 AS age_ms,
              ${walk.cursorAt} AS cursor_at
         FROM cyclium_trigger_requests r
         LEFT JOIN cyclium_episodes e ON e.id = r.episode_id
        WHERE ${where.join(" AND ")}
        ORDER BY r.source_env ${walk.leadOrder}, r.inserted_at ${walk.order}, r.id ${walk.order}
        LIMIT ${walk.limit}`,
      params.values,
    ),
    // Open requests only, each state through its partial index: completed ones are history.
    options.db.query<{ pending: number; claimed: number }>(
      `SELECT (SELECT count(*) FROM cyclium_trigger_requests
                WHERE status = 'pending' AND ${countScope})::int AS pending,
              (SELECT count(*) FROM cyclium_trigger_requests
                WHERE status = 'claimed' AND ${countScope})::int AS claimed`,
      countParams.values,
    ),
    listClusterModes({ db: options.db }),
  ]);
  const { items, page } = walk.page(
    rows.map((row) => ({
      cursorAt: row.cursor_at,
      item: {
        id: row.id,
        episodeId: row.episode_id,
        actorId: row.actor_id,
        expectationId: row.expectation_id,
        status: row.status,
        sourceNode: row.source_node,
        sourceStack: row.source_stack,
        sourceEnv: row.source_env,
        claimedBy: row.claimed_by,
        claimedAt: row.claimed_at,
        completedAt: row.completed_at,
        insertedAt: row.inserted_at,
        ageMs: Math.round(row.age_ms),
        episodeStatus: row.episode_status,
        pendingReason:
          row.status === "pending"
            ? explainPendingRequest(
                { actorId: row.actor_id, sourceEnv: row.source_env, ageMs: row.age_ms },
                cluster,
              )
            : null,
      },
    })),
  );
  return {
    items,
    page,
    pending: counts.rows[0]?.pending ?? 0,
    claimed: counts.rows[0]?.claimed ?? 0,
  };
}
