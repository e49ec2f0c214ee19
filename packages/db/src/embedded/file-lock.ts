import fs from "node:fs/promises";
import lockfile from "proper-lockfile";

/**
 * A cross-process mutex beside `target` (proper-lockfile: an atomic mkdir whose mtime the holder
 * refreshes). A lock left by a crashed process goes stale after 10 s and is then taken over.
 */
export async function withFileLock<T>(
  target: string,
  fn: () => Promise<T>,
  timeoutMs = 90_000,
): Promise<T> {
  await fs.writeFile(target, "", { flag: "a" });
  const release = await lockfile.lock(target, {
    stale: 10_000,
    update: 2_000,
    retries: { retries: Math.ceil(timeoutMs / 250), minTimeout: 100, maxTimeout: 250, factor: 1.2 },
  });
  try {
    return await fn();
  } finally {
    await release();
  }
}
