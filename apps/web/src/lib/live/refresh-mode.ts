"use client";

import { useStoredChoice } from "@/lib/preferences/stored-choice";

/**
 * How live pages refresh, chosen per browser in the top bar:
 * - `live`: changes pushed over the live stream, with slow polling as the fallback;
 * - `5s`, `30s`: polling only, at that interval (no stream);
 * - `paused`: no requests at all until the operator picks another mode.
 */
export const REFRESH_MODES = ["live", "5s", "30s", "paused"] as const;
export type TRefreshMode = (typeof REFRESH_MODES)[number];

export const REFRESH_MODE_KEY = "cyclium.refresh";

export const REFRESH_MODE_LABELS: Record<TRefreshMode, string> = {
  live: "Live",
  "5s": "Every 5 s",
  "30s": "Every 30 s",
  paused: "Paused",
};

/**
 * In `live` mode a page whose data the stream covers still polls this often, in case a hint was
 * lost (a stream reconnecting, a NOTIFY too large to travel inline and dropped); 30 s is the
 * slowest interval the pages polled at before the stream existed.
 */
export const LIVE_FALLBACK_MS = 30_000;

export function useRefreshMode(): [TRefreshMode, (next: TRefreshMode) => void] {
  return useStoredChoice(REFRESH_MODE_KEY, REFRESH_MODES, "live");
}

export interface TRefetchIntervalOptions {
  /** The page's own interval: `live` mode's while the stream is down or does not cover the query. */
  baseMs: number;
  /** Whether the live stream carries hints for this query (false: telemetry, audit, facets). */
  pushed: boolean;
  /** Whether this tab's stream is open and fed by the bus. */
  streaming: boolean;
  /**
   * `live` mode's interval while streaming, when LIVE_FALLBACK_MS is too slow because only some
   * of the query's changes are pushed (a running episode's steps are not).
   */
  streamingMs?: number | undefined;
}

/** The refetch interval of one query for a refresh mode; false means no polling at all. */
export function refetchIntervalFor(
  mode: TRefreshMode,
  options: TRefetchIntervalOptions,
): number | false {
  switch (mode) {
    case "paused":
      return false;
    case "5s":
      return 5_000;
    case "30s":
      return 30_000;
    case "live":
      if (!options.pushed || !options.streaming) return options.baseMs;
      return options.streamingMs ?? Math.max(options.baseMs, LIVE_FALLBACK_MS);
  }
}
