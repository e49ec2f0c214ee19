import fs from "node:fs";

/** True when a process with this pid exists (signal 0 probes without sending anything). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * True when `pid` is alive AND is a PostgreSQL server. After a machine restart a stale
 * postmaster.pid can name a pid that now belongs to an unrelated process; checking the command
 * line keeps us from mistaking that process for our server.
 */
export function isPostgresProcess(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return cmdline.includes("postgres");
  } catch {
    // No /proc (macOS): fall back to liveness alone.
    return true;
  }
}
