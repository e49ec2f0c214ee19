import { announce, LIFECYCLE_TOPICS, type AnnounceOptions } from "../bus/index";
import type { Finding } from "./finding-row";

export type FindingTransition = "raised" | "cleared" | "expired";

const TOPICS = {
  raised: LIFECYCLE_TOPICS.findingRaised,
  cleared: LIFECYCLE_TOPICS.findingCleared,
  expired: LIFECYCLE_TOPICS.findingExpired,
} as const;

/** Publishes `finding.<transition>` (and its telemetry) for one finding that was written. */
export function announceFinding(
  options: AnnounceOptions,
  transition: FindingTransition,
  finding: Finding,
): Promise<void> {
  return announce(options, TOPICS[transition], {
    finding_id: finding.id,
    finding_key: finding.findingKey,
    class: finding.class,
    severity: finding.severity,
    status: finding.status,
    env: finding.env,
    episode_id: finding.episodeId,
    actor_id: finding.actorId,
    raised_count: finding.raisedCount,
  });
}
