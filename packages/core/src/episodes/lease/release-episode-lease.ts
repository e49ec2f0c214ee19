import type { Queryable } from "../../db/index";

/**
 * Lets go of an episode's own lease (SPEC section 4) without ending the episode: `lease_until`
 * NULL while the row is still executed by `owner` at `attempt`. What a claim row's `done` or
 * `failed` is to the claims table: a run left `running` (aborted, interrupted, fenced out) is then
 * an orphan recovery may take at once, and every late write of this attempt is fenced out. Only
 * `lease_until` changes (in no index), so the update is HOT. False when the lease was not held:
 * stolen, recovered, cancelled or already released.
 */
export async function releaseEpisodeLease(
  options: { episodeId: string; owner: string; attempt: number },
  db: Queryable,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE cyclium_episodes SET lease_until = NULL
      WHERE id = $1::uuid AND executed_by = $2 AND attempt = $3 AND lease_until IS NOT NULL`,
    [options.episodeId, options.owner, options.attempt],
  );
  return (rowCount ?? 0) > 0;
}
