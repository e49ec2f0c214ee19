"use client";

import { useCallback, useSyncExternalStore } from "react";

// One event name for every stored choice, so a toggle in the top bar re-renders every reader in
// the tab at once; the `storage` event covers the other tabs.
const CHANGED = "cyclium:preference";

function subscribe(onChange: () => void): () => void {
  window.addEventListener(CHANGED, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener("storage", onChange);
  };
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage disabled (private mode, policy): the default stands.
    return null;
  }
}

/**
 * A choice kept in localStorage (theme, time zone), one of `values`. The server and the first
 * client render both see `fallback`, so hydration never mismatches; the stored value follows.
 */
export function useStoredChoice<T extends string>(
  key: string,
  values: readonly T[],
  fallback: T,
): [T, (next: T) => void] {
  const value = useSyncExternalStore(
    subscribe,
    () => {
      const stored = read(key);
      return values.find((candidate) => candidate === stored) ?? fallback;
    },
    () => fallback,
  );
  const choose = useCallback(
    (next: T) => {
      try {
        window.localStorage.setItem(key, next);
      } catch {
        // Not stored: the choice lasts for this page only.
      }
      window.dispatchEvent(new Event(CHANGED));
    },
    [key],
  );
  return [value, choose];
}
