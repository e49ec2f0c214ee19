import type { Queryable } from "../../db/index";
import { defaultTelemetry, type Telemetry } from "../../telemetry/index";

export interface RenewEpisodeLeasesOptions {
  owner: string;
  leaseSeconds: number;
  /** The leases this owner holds, each at the attempt it started or stole at. */
  leases: readonly { episodeId: string; attempt: number }[];
  telemetry?: Telemetry;
}

export type RenewEpisodeLeaseOutcome = { ok: true } | { ok: false; error: "not_owner" };

/**
 * The heartbeat of episodes holding their own lease (SPEC section 4): one statement renews every
 * lease still held by `owner` at its attempt (database clock). Only `lease_until` changes, a
 * column in no index, so each renewal is a HOT update. A lease stolen, recovered, cancelled or
 * ended meanwhile answers `not_owner`, which stops the heartbeat and aborts the run (SPEC 4).
 * Emits `cyclium.work_claims.renewed` / `renew_failed` per lease, as the claim rows' renew does.
 */
export async function renewEpisodeLeases(
  options: RenewEpisodeLeasesOptions,
  db: Queryable,
): Promise<RenewEpisodeLeaseOutcome[]> {
  if (options.leases.length === 0) return [];
  const telemetry = options.telemetry ?? defaultTelemetry;
  const started = performance.now();
  const { rows } = await db.query<{ id: string }>(
    `UPDATE cyclium_episodes e
        SET lease_until = now() + make_interval(secs => $2)
       FROM unnest($3::uuid[], $4::int[]) AS i(episode_id, attempt)
      WHERE e.id = ANY($3::uuid[]) AND e.id = i.episode_id AND e.attempt = i.attempt
        AND e.executed_by = $1 AND e.lease_until IS NOT NULL AND e.status = 'running'
     RETURNING e.id::text AS id`,
    [
      options.owner,
      options.leaseSeconds,
      options.leases.map((lease) => lease.episodeId),
      options.leases.map((lease) => lease.attempt),
    ],
  );
  const renewed = new Set(rows.map((row) => row.id));
  const measurements = { count: 1, duration_ms: performance.now() - started };
  return options.leases.map(({ episodeId, attempt }): RenewEpisodeLeaseOutcome => {
    const metadata = { episode_id: episodeId, owner_node: options.owner, attempt };
    if (renewed.has(episodeId)) {
      telemetry.emit("cyclium.work_claims.renewed", measurements, metadata);
      return { ok: true };
    }
    telemetry.emit("cyclium.work_claims.renew_failed", measurements, {
      ...metadata,
      reason: "not_owner",
    });
    return { ok: false, error: "not_owner" };
  });
}
