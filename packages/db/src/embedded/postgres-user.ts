import { execFile } from "node:child_process";
import os from "node:os";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export interface RunAs {
  uid?: number;
  gid?: number;
}

/**
 * PostgreSQL refuses to run as root. When we are root (CI, containers), run its binaries as the
 * system `postgres` user, creating that user when the machine has none.
 */
export async function runAsPostgresUser(): Promise<RunAs> {
  if (os.userInfo().uid !== 0) return {};
  let ids = await lookup();
  if (!ids) {
    await execFileAsync("groupadd", ["--system", "postgres"]).catch(() => undefined);
    await execFileAsync("useradd", ["--system", "-g", "postgres", "postgres"]);
    ids = await lookup();
  }
  if (!ids)
    throw new Error("Could not find or create the `postgres` system user to run PostgreSQL as.");
  return ids;
}

async function lookup(): Promise<RunAs | undefined> {
  try {
    const uid = Number.parseInt((await execFileAsync("id", ["-u", "postgres"])).stdout, 10);
    const gid = Number.parseInt((await execFileAsync("id", ["-g", "postgres"])).stdout, 10);
    return Number.isFinite(uid) && Number.isFinite(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}
