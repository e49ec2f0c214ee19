import { setTimeout as sleep } from "node:timers/promises";

/** Polls `probe` until it returns true; false when `timeoutMs` passed first. */
export async function waitUntil(
  probe: () => Promise<boolean> | boolean,
  timeoutMs: number,
  intervalMs = 100,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (performance.now() > deadline) return false;
    await sleep(intervalMs);
  }
}
