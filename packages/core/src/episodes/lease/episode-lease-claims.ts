import { checkFence } from "../../claims/check-fence";
import type {
  AcquireClaimResult,
  ClaimFence,
  CompleteClaimOptions,
  ReclaimExpiredResult,
  ReleaseClaimResult,
  RenewClaimOptions,
  RenewClaimResult,
  RenewManyClaimsOptions,
  RenewManyClaimsResult,
  WorkClaims,
} from "../../claims/work-claims";
import type { Queryable } from "../../db/index";
import type { Telemetry } from "../../telemetry/index";
import { releaseEpisodeLease } from "./release-episode-lease";
import { renewEpisodeLeases } from "./renew-episode-leases";

const NOT_OWNER = { ok: false, error: "not_owner" } as const;

/**
 * The WorkClaims face of episodes' own leases (SPEC section 4), for the runtime's claim life cycle
 * (runWithAcquiredClaim and the node's lease keeper) around a run started in its row
 * (startLeasedEpisodes, startRequestedEpisodes). Its key is the episode id, not the claim key:
 * `renewMany` is renewEpisodeLeases, `holds` the fence's test on the episode row, `complete` and
 * `fail` clear `lease_until` (releaseEpisodeLease). The start takes the lease, so `acquire` is
 * never called; the claims table's sweep (`reclaimExpired`) has nothing of it to expire (recovery
 * takes a lapsed lease).
 */
export class EpisodeLeaseClaims implements WorkClaims {
  readonly usesSqlFence = true;

  constructor(
    private readonly db: Queryable,
    private readonly telemetry?: Telemetry,
  ) {}

  acquire(): Promise<AcquireClaimResult> {
    return Promise.reject(new Error("an episode's own lease is taken by its start statement"));
  }

  async renew(options: RenewClaimOptions): Promise<RenewClaimResult> {
    const { renewed } = await this.renewMany({
      owner: options.owner,
      leaseSeconds: options.leaseSeconds,
      claims: [{ dedupeKey: options.dedupeKey, attempt: options.attempt }],
    });
    return renewed.length > 0 ? { ok: true } : NOT_OWNER;
  }

  async renewMany(options: RenewManyClaimsOptions): Promise<RenewManyClaimsResult> {
    const leases = options.claims.flatMap(({ dedupeKey, attempt }) =>
      attempt === undefined ? [] : [{ episodeId: dedupeKey, attempt }],
    );
    const outcomes = await renewEpisodeLeases(
      {
        owner: options.owner,
        leaseSeconds: options.leaseSeconds,
        leases,
        ...(this.telemetry === undefined ? {} : { telemetry: this.telemetry }),
      },
      this.db,
    );
    return {
      renewed: leases
        .filter((_, index) => outcomes[index]?.ok === true)
        .map(({ episodeId, attempt }) => ({ dedupeKey: episodeId, attempt })),
    };
  }

  complete(options: CompleteClaimOptions): Promise<ReleaseClaimResult> {
    return this.#release(options);
  }

  fail(options: CompleteClaimOptions): Promise<ReleaseClaimResult> {
    return this.#release(options);
  }

  reclaimExpired(): Promise<ReclaimExpiredResult> {
    return Promise.resolve({ expiredKeys: [] });
  }

  holds(fence: ClaimFence): Promise<boolean> {
    return checkFence({ ...fence, episodeId: fence.episodeId ?? fence.dedupeKey }, this.db);
  }

  async #release(options: CompleteClaimOptions): Promise<ReleaseClaimResult> {
    if (options.attempt === undefined) return NOT_OWNER;
    const released = await releaseEpisodeLease(
      { episodeId: options.dedupeKey, owner: options.owner, attempt: options.attempt },
      this.db,
    );
    return released ? { ok: true } : NOT_OWNER;
  }
}
