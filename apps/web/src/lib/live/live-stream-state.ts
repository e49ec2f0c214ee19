"use client";

import { useSyncExternalStore } from "react";

/**
 * Whether this tab's live stream is open and fed by the cluster's bus. Written by the one
 * LiveUpdates component, read by every query's refetch interval and the live indicators.
 */
let streaming = false;
const listeners = new Set<() => void>();

export function setLiveStreaming(next: boolean): void {
  if (next === streaming) return;
  streaming = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLiveStreaming(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => streaming,
    () => false,
  );
}
