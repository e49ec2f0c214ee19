import type { ClaimFence } from "../../claims/index";
import type { Queryable } from "../../db/index";
import { defaultTelemetry, type Telemetry } from "../../telemetry/index";

export interface StealEpisodeLeasesOptions {
  owner: string;
  leaseSeconds: number;
  episodeIds: readonly string[];
  telemetry?: Telemetry;
}

export type StealEpisodeLeaseOutcome =
  /** Taken over at `attempt` (the old one + 1): the old owner's writes are fenced from now on. */
  | { ok: true; attempt: number; stolen: true; fence: ClaimFence }
  /** The lease is live (its owner renews it), or the episode is not running with a lease. */
  | { ok: false; error: "busy" };

/**
 * The steal of SPEC section 4 for an episode holding its own lease: a `running` episode whose
 * lease ran out (database clock) is taken over in one conditional update: new owner and lease,
 * `attempt + 1`. The row lock orders concurrent thieves: the second re-reads the row the first
 * left, finds the lease live, and gets `busy`. A live `claimed` claim row of the episode's key (a
 * node of the previous release during a rolling upgrade) makes it busy too. Emits
 * `cyclium.work_claims.steal` or `cyclium.work_claims.busy` per episode, as acquire does.
 */
export async function stealEpisodeLeases(
  options: StealEpisodeLeasesOptions,
  db: Queryable,
): Promise<StealEpisodeLeaseOutcome[]> {
  if (options.episodeIds.length === 0) return [];
  const telemetry = options.telemetry ?? defaultTelemetry;
  const started = performance.now();
  const { rows } = await db.query<{ id: string; attempt: number; claim_key: string }>(
    `UPDATE cyclium_episodes e
        SET executed_by = $1, attempt = e.attempt + 1,
            lease_until = now() + make_interval(secs => $2), updated_at = now()
      WHERE e.id = ANY($3::uuid[]) AND e.status = 'running' AND e.lease_until < now()
        AND NOT EXISTS (
          SELECT 1 FROM cyclium_work_claims w
           WHERE w.dedupe_key = COALESCE(e.dedupe_key, 'episode:' || e.id::text)
             AND w.state = 'claimed' AND w.lease_until >= now())
     RETURNING e.id::text AS id, e.attempt,
               COALESCE(e.dedupe_key, 'episode:' || e.id::text) AS claim_key`,
    [options.owner, options.leaseSeconds, options.episodeIds],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const measurements = { count: 1, duration_ms: performance.now() - started };
  return options.episodeIds.map((episodeId): StealEpisodeLeaseOutcome => {
    const row = byId.get(episodeId);
    const metadata = { episode_id: episodeId, owner_node: options.owner };
    if (row === undefined) {
      telemetry.emit("cyclium.work_claims.busy", measurements, metadata);
      return { ok: false, error: "busy" };
    }
    telemetry.emit("cyclium.work_claims.steal", measurements, {
      ...metadata,
      dedupe_key: row.claim_key,
      attempt: row.attempt,
    });
    return {
      ok: true,
      attempt: row.attempt,
      stolen: true,
      fence: { dedupeKey: row.claim_key, owner: options.owner, attempt: row.attempt, episodeId },
    };
  });
}
