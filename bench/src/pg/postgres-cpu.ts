import { readdir, readFile } from "node:fs/promises";

/** Linux reports process times in clock ticks; 100 per second on every mainstream kernel. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  ppid: number;
  /** utime + stime, ms. */
  cpuMs: number;
}

async function readStat(pid: number): Promise<ProcStat | null> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (text === null) return null;
  // The command name (field 2) may contain spaces; the fields after its closing ')' do not.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const ppid = Number(fields[1]);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (![ppid, utime, stime].every(Number.isFinite)) return null;
  return { ppid, cpuMs: ((utime + stime) * 1000) / TICKS_PER_SECOND };
}

/**
 * CPU time of the PostgreSQL server's processes (every child of the postmaster: backends,
 * WAL writer, checkpointer...), per pid, when the server runs on this machine. A backend that
 * exits between two readings loses its time, so read while the workers are still connected.
 */
export class PostgresCpu {
  private constructor(private readonly postmaster: number) {}

  /** From any backend pid of the server; null when /proc does not show it (remote server). */
  static async find(backendPid: number | null): Promise<PostgresCpu | null> {
    if (backendPid === null) return null;
    const stat = await readStat(backendPid);
    return stat === null ? null : new PostgresCpu(stat.ppid);
  }

  async read(): Promise<Map<number, number>> {
    const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name)).map(Number);
    const stats = await Promise.all(pids.map(async (pid) => [pid, await readStat(pid)] as const));
    const result = new Map<number, number>();
    for (const [pid, stat] of stats) {
      if (stat !== null && stat.ppid === this.postmaster) result.set(pid, stat.cpuMs);
    }
    return result;
  }

  /** CPU ms spent between two readings (processes started in between count from zero). */
  static spent(before: Map<number, number>, after: Map<number, number>): number {
    let total = 0;
    for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
    return total;
  }
}
