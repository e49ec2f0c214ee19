import type { Queryable } from "../db/index";
import type { Episode } from "../episodes/index";
// The listing file, not nodes/index: that face also carries createCycliumNode, which runs the poller.
import { DEFAULT_LIVE_WITHIN_MS } from "../scope/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { ageTriggerRequests } from "./age-trigger-requests";
import { completeSettledTriggerRequests } from "./complete-settled-trigger-requests";
import { expireTriggerRequests } from "./expire-trigger-requests";
import { releaseOrphanedTriggerRequests } from "./release-orphaned-trigger-requests";
import { releaseStrandedTriggerRequests } from "./release-trigger-requests";

export interface RequestMaintenanceOptions {
  db: Queryable;
  nodeIdentity: string;
  sourceStack: string | null;
  sourceEnv: string | null;
  ttlMs: number;
  ageingMs: number;
  /** Ids of the requests this node dispatched and has not settled: never put back. */
  held: readonly string[];
  onEpisodesExpired?: ((episodes: Episode[]) => void) | undefined;
  logger: Logger;
  telemetry: Telemetry;
}

/**
 * A full node's periodic pass over the deferred queue: expires requests due for longer than the
 * TTL (failing their episodes), raises waiting requests' claim priority (the ageing rule), puts
 * back requests of nodes that are gone and those this node claimed but does not hold, and
 * completes requests whose episodes settled. Returns how many requests went back to pending.
 */
export async function runRequestMaintenance(options: RequestMaintenanceOptions): Promise<number> {
  const { db, logger, telemetry, ttlMs } = options;
  const expired = await expireTriggerRequests(
    { ttlMs, sourceStack: options.sourceStack, sourceEnv: options.sourceEnv, limit: 1_000 },
    db,
  );
  if (expired.expired > 0) {
    telemetry.emit("cyclium.trigger_request.expired", { count: expired.expired });
    logger.warn({ expired: expired.expired, ttl_ms: ttlMs }, "expired deferred trigger requests");
  }
  if (expired.failedEpisodes.length > 0) options.onEpisodesExpired?.(expired.failedEpisodes);
  await ageTriggerRequests({ ageingMs: options.ageingMs }, db);
  const released = await releaseOrphanedTriggerRequests(
    { nodeSilenceMs: DEFAULT_LIVE_WITHIN_MS, minClaimAgeMs: DEFAULT_LIVE_WITHIN_MS },
    db,
  );
  if (released > 0) logger.warn({ released }, "released requests claimed by nodes that are gone");
  const stranded = await releaseStrandedTriggerRequests(
    { node: options.nodeIdentity, held: options.held, minClaimAgeMs: DEFAULT_LIVE_WITHIN_MS },
    db,
  );
  if (stranded > 0) {
    logger.warn({ released: stranded }, "released requests this node claimed but does not hold");
  }
  await completeSettledTriggerRequests(db);
  return released + stranded;
}
