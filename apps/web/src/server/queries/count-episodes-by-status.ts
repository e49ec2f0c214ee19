import type { TQueryable } from "./queryable";

export const EPISODE_STATUSES = ["pending", "running", "completed", "failed", "cancelled"] as const;
export type TEpisodeStatus = (typeof EPISODE_STATUSES)[number];

export type TEpisodeStatusCounts = Record<TEpisodeStatus, number> & { total: number };

interface StatusCountRow {
  status: string;
  count: number;
}

function isEpisodeStatus(status: string): status is TEpisodeStatus {
  return (EPISODE_STATUSES as readonly string[]).includes(status);
}

/**
 * Episodes per status in one env. Env matching is strict (SPEC section 8): `null` is the unset
 * env and only matches rows whose source_env is NULL, hence IS NOT DISTINCT FROM.
 */
export async function countEpisodesByStatus(options: {
  db: TQueryable;
  env: string | null;
}): Promise<TEpisodeStatusCounts> {
  const { rows } = await options.db.query<StatusCountRow>(
    `SELECT status, count(*)::int AS count
       FROM cyclium_episodes
      WHERE source_env IS NOT DISTINCT FROM $1
      GROUP BY status`,
    [options.env],
  );
  const counts: TEpisodeStatusCounts = {
    pending: 0,
    running: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
    total: 0,
  };
  for (const row of rows) {
    // An unknown status (a newer node writing a state this console predates) still counts
    // towards the total so the numbers never silently shrink.
    if (isEpisodeStatus(row.status)) counts[row.status] += row.count;
    counts.total += row.count;
  }
  return counts;
}
