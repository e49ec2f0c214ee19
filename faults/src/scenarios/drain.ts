import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

export interface OpenCounts {
  pending: number;
  running: number;
}

/** Pending and running episodes right now; null while the database cannot be reached. */
export async function countOpen(url: string): Promise<OpenCounts | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<OpenCounts>(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
              count(*) FILTER (WHERE status = 'running')::int AS running
         FROM cyclium_episodes`,
    );
    return rows[0] ?? null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Waits until no episode is pending or running, polling: how long that takes depends on the
 * machine's load, so there is no fixed sleep, only a generous upper bound. Returns whether it
 * drained and how long it took.
 */
export async function waitForDrain(
  url: string,
  timeoutMs: number,
  log: (message: string) => void,
): Promise<{ drained: boolean; drainMs: number }> {
  const started = performance.now();
  let lastLog = started;
  for (;;) {
    const open = await countOpen(url);
    const elapsed = performance.now() - started;
    if (open !== null && open.pending === 0 && open.running === 0) {
      return { drained: true, drainMs: elapsed };
    }
    if (elapsed > timeoutMs) return { drained: false, drainMs: elapsed };
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(
        `draining: ${open ? `${open.pending} pending, ${open.running} running` : "database unreachable"}`,
      );
    }
    await sleep(250);
  }
}

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
