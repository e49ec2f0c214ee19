"use client";

import { useEffect, useState } from "react";

/**
 * The current time, ticking every `intervalMs`, or null during the server render and hydration:
 * relative times ("4 s ago") depend on the clock, so they are drawn only after mount, where a
 * server/browser difference cannot break hydration.
 */
export function useNow(intervalMs = 1_000): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
