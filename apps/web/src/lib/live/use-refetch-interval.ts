"use client";

import { useLiveStreaming } from "./live-stream-state";
import { refetchIntervalFor, useRefreshMode } from "./refresh-mode";

/**
 * A live query's `refetchInterval` under the operator's refresh mode. `pushed: false` for data the
 * live stream carries no hint for (telemetry rollups, the audit log): those keep `baseMs` in live
 * mode.
 */
export function useRefetchInterval(
  baseMs: number,
  options: { pushed?: boolean; streamingMs?: number } = {},
): number | false {
  const [mode] = useRefreshMode();
  const streaming = useLiveStreaming();
  return refetchIntervalFor(mode, {
    baseMs,
    pushed: options.pushed ?? true,
    streaming,
    streamingMs: options.streamingMs,
  });
}
