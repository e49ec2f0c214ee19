"use client";

import { useLiveStreaming } from "@/lib/live/live-stream-state";
import { refetchIntervalFor, useRefreshMode } from "@/lib/live/refresh-mode";

const LABELS = {
  live: "Live",
  loading: "Connecting",
  error: "Reconnecting",
  paused: "Paused",
} as const;

/**
 * Tells the operator whether the numbers on screen are current, under the refresh mode chosen in
 * the top bar: pushed, polled every N s, or paused.
 */
export function LiveIndicator({
  state,
  refreshMs,
}: {
  state: Exclude<keyof typeof LABELS, "paused">;
  refreshMs: number;
}) {
  const [mode] = useRefreshMode();
  const streaming = useLiveStreaming();
  const shown = mode === "paused" ? "paused" : state;
  const intervalMs = refetchIntervalFor(mode, { baseMs: refreshMs, pushed: false, streaming });
  const detail =
    mode === "paused"
      ? "no refresh"
      : mode === "live" && streaming
        ? "pushed"
        : `every ${(intervalMs === false ? refreshMs : intervalMs) / 1000} s`;
  return (
    // A status region: a screen reader hears "Reconnecting" when refreshes start failing.
    <span
      role="status"
      aria-live="polite"
      className="live-indicator"
      data-state={shown}
      data-refresh-mode={mode}
      title={
        mode === "paused"
          ? "Refresh is paused (top bar)"
          : mode === "live" && streaming
            ? "Changes are pushed as they happen, with a slow poll as the fallback"
            : `Refreshes every ${(intervalMs === false ? refreshMs : intervalMs) / 1000} s while this tab is visible`
      }
      data-testid="live-indicator"
    >
      <span className="live-dot" aria-hidden="true" />
      {LABELS[shown]}
      <span className="live-indicator-interval">{detail}</span>
    </span>
  );
}
