import fs from "node:fs/promises";
import { isProcessAlive } from "./process-alive";

/**
 * A cross-process mutex on a file created with O_EXCL. The holder's pid is written into it, so a
 * lock left behind by a crashed process (pid no longer alive) is taken over instead of waited on.
 */
export async function withFileLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await fs.open(lockPath, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(await fs.readFile(lockPath, "utf8").catch(() => ""), 10);
      if (!Number.isFinite(holder) || !isProcessAlive(holder)) {
        // Stale (crashed holder) or half-written: remove and retry. Two processes may both see it
        // stale; `rm` + `open(wx)` still lets exactly one of them create the new lock.
        await fs.rm(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${lockPath} (held by pid ${holder})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lockPath, { force: true });
  }
}
