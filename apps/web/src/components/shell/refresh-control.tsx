"use client";

import { useLiveStreaming } from "@/lib/live/live-stream-state";
import {
  REFRESH_MODE_LABELS,
  REFRESH_MODES,
  type TRefreshMode,
  useRefreshMode,
} from "@/lib/live/refresh-mode";

/**
 * How every live page refreshes, chosen once for this browser (localStorage): pushed changes,
 * polling every 5 s or 30 s, or paused. The dot says whether the live stream is connected.
 */
export function RefreshControl() {
  const [mode, setMode] = useRefreshMode();
  const streaming = useLiveStreaming();
  const state = mode === "paused" ? "paused" : mode === "live" && !streaming ? "polling" : "on";
  return (
    <label
      className="refresh-control"
      data-state={state}
      title={
        mode === "live"
          ? streaming
            ? "Changes are pushed as they happen"
            : "Connecting the live stream; pages poll meanwhile"
          : mode === "paused"
            ? "Paused: pages send no requests until you pick another mode"
            : "Pages poll at this interval"
      }
    >
      <span className="refresh-control-dot" aria-hidden="true" />
      <span className="visually-hidden">Refresh</span>
      <select
        className="refresh-control-select"
        data-testid="refresh-mode"
        value={mode}
        onChange={(event) => {
          const next = REFRESH_MODES.find((candidate) => candidate === event.target.value);
          if (next !== undefined) setMode(next satisfies TRefreshMode);
        }}
      >
        {REFRESH_MODES.map((choice) => (
          <option key={choice} value={choice}>
            {REFRESH_MODE_LABELS[choice]}
          </option>
        ))}
      </select>
    </label>
  );
}
