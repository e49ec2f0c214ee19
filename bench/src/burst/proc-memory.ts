import { readFile } from "node:fs/promises";

/** A process's resident set from /proc/<pid>/status, bytes: now and its high-water mark. */
export interface ProcMemory {
  rss: number;
  /** VmHWM: the peak RSS over the process's whole life. */
  hwm: number;
}

/** Undefined where /proc is missing (not Linux) or the process is gone. */
export async function readProcMemory(pid: number): Promise<ProcMemory | undefined> {
  let status: string;
  try {
    status = await readFile(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kB = (field: string): number | undefined => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status);
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
  };
  const rss = kB("VmRSS");
  const hwm = kB("VmHWM");
  return rss === undefined || hwm === undefined ? undefined : { rss, hwm };
}
