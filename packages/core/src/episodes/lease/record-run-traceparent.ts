import type { Queryable } from "../../db/index";

/**
 * Stores an episode's run span as `trace_context.run` while this attempt holds its own lease
 * (SPEC section 4), so that the attempt after it (a hand-back, a restart after this node died)
 * links to this run. A claim row's start carries the value; a start the poller sent in the row
 * (startRequestedEpisodes) was sent before the run span existed, so the runner writes it here,
 * only when tracing is on. False when the lease was no longer held (nothing is written).
 */
export async function recordRunTraceparent(
  options: { episodeId: string; owner: string; attempt: number; runTraceparent: string },
  db: Queryable,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE cyclium_episodes
        SET trace_context = COALESCE(trace_context, '{}'::jsonb) || jsonb_build_object('run', $4::text)
      WHERE id = $1::uuid AND executed_by = $2 AND attempt = $3 AND lease_until IS NOT NULL`,
    [options.episodeId, options.owner, options.attempt, options.runTraceparent],
  );
  return (rowCount ?? 0) > 0;
}
