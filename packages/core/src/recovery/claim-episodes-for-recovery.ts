import type { Queryable } from "../db/index";

export interface RecoveryClaim {
  id: string;
  /** The phase before this claim, to put back if the work-claim gate then says busy. */
  previousPhase: string | null;
}

/**
 * The recovery claim (SPEC section 5, step 3): one conditional UPDATE that moves an orphan to
 * `phase = 'recovering'` only while it is still `running`, unarchived and not already being
 * recovered. A bare `status = 'running'` guard would let every sweeping node "win" the same row,
 * because none of them changes the status; the phase guard is what makes the second claimant
 * see the row as taken.
 *
 * `FOR UPDATE SKIP LOCKED` in the inner select makes nodes that claim overlapping batches in
 * different (shuffled) orders pass each other instead of queueing on, or deadlocking over, each
 * other's row locks. Locking re-reads the newest committed version of each row, so the guards are
 * checked against what another node just committed, not against this statement's snapshot.
 *
 * An episode holding its own lease (SPEC section 4) is no orphan while the lease is live: its
 * owner renews it. Once the lease has lapsed the claim takes it like any orphan, and the policy's
 * statement clears the lease (restart also raises `attempt`), which fences the old owner's writes.
 */
const SQL = `
UPDATE cyclium_episodes e
   SET phase = 'recovering',
       updated_at = now()
  FROM (
    SELECT id, phase
      FROM cyclium_episodes
     WHERE id = ANY($1::uuid[])
       AND status = 'running'
       AND archived_at IS NULL
       AND phase IS DISTINCT FROM 'recovering'
       AND (lease_until IS NULL OR lease_until < now())
     ORDER BY id
       FOR UPDATE SKIP LOCKED
  ) claimable
 WHERE e.id = claimable.id
RETURNING e.id, claimable.phase AS previous_phase`;

/** Claims the given orphans for recovery; returns the ones this caller won. */
export async function claimEpisodesForRecovery(
  episodeIds: readonly string[],
  db: Queryable,
): Promise<RecoveryClaim[]> {
  if (episodeIds.length === 0) return [];
  const result = await db.query<{ id: string; previous_phase: string | null }>(SQL, [episodeIds]);
  return result.rows.map((row) => ({ id: row.id, previousPhase: row.previous_phase }));
}
