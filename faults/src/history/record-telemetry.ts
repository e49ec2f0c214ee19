import type { Telemetry, TelemetryEvent, TelemetryEventName } from "@cyclium/core/worker";
import type { HistoryWriter } from "./history-writer";

const CLAIM_EVENTS = {
  "cyclium.work_claims.acquired": "acquired",
  "cyclium.work_claims.steal": "steal",
  "cyclium.work_claims.renew_failed": "renew_failed",
  "cyclium.work_claims.completed": "completed",
  "cyclium.work_claims.failed": "failed",
} as const;

const EPISODE_EVENTS = {
  "cyclium.episode.started": "started",
  "cyclium.episode.completed": "completed",
  "cyclium.episode.failed": "failed",
  "cyclium.episode.fenced": "fenced",
} as const;

type ClaimEventName = keyof typeof CLAIM_EVENTS;
type EpisodeEventName = keyof typeof EPISODE_EVENTS;

function isClaimEvent(name: TelemetryEventName): name is ClaimEventName {
  return name in CLAIM_EVENTS;
}

function isEpisodeEvent(name: TelemetryEventName): name is EpisodeEventName {
  return name in EPISODE_EVENTS;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function integer(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

/**
 * Writes the claim, episode and recovery telemetry core emits into the process's history. Busy
 * acquires and renewals are left out: they are the steady state (every node answers busy for
 * every event another node won), not something the checker needs.
 */
export function recordTelemetry(telemetry: Telemetry, history: HistoryWriter): () => void {
  const events: TelemetryEventName[] = [
    ...(Object.keys(CLAIM_EVENTS) as ClaimEventName[]),
    ...(Object.keys(EPISODE_EVENTS) as EpisodeEventName[]),
    "cyclium.recovery.sweep",
    "cyclium.episode.deduped",
  ];
  return telemetry.subscribe(
    (event: TelemetryEvent) => {
      const { name, metadata, measurements } = event;
      if (isClaimEvent(name)) {
        const attempt = integer(metadata.attempt);
        history.write({
          op: "claim",
          event: CLAIM_EVENTS[name],
          key: text(metadata.dedupe_key) ?? "",
          ...(attempt === undefined ? {} : { attempt }),
        });
      } else if (isEpisodeEvent(name)) {
        const write = text(metadata.write);
        const attempt = integer(metadata.attempt);
        history.write({
          op: "episode",
          event: EPISODE_EVENTS[name],
          episodeId: text(metadata.episode_id) ?? "",
          ...(write === undefined ? {} : { write }),
          ...(attempt === undefined ? {} : { attempt }),
        });
      } else if (name === "cyclium.episode.deduped") {
        history.write({ op: "dedupe", key: text(metadata.dedupe_key) ?? "" });
      } else if (name === "cyclium.recovery.sweep" && (measurements.found ?? 0) > 0) {
        history.write({
          op: "sweep",
          found: measurements.found ?? 0,
          claimed: measurements.claimed ?? 0,
          restarted: measurements.restarted ?? 0,
          failed: measurements.failed ?? 0,
        });
      }
    },
    { events },
  );
}
