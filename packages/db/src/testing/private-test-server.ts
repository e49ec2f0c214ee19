import { execFile } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort, initCluster, startCluster } from "../embedded/embedded-postgres";
import { resolvePostgresBinaries } from "../embedded/postgres-binaries";
import { runAsPostgresUser } from "../embedded/postgres-user";
import { isPostgresProcess } from "../embedded/process-alive";
import { migrate } from "../migrate/migrate";
import { migrationsDir } from "../paths";

const execFileAsync = promisify(execFile);

/**
 * A throwaway PostgreSQL server of its own, for a test that stops and restarts the server:
 * doing that to the shared test server would break every other test file running beside it.
 */
export interface PrivateTestServer {
  /** The migrated database `cyclium` on it. */
  url: string;
  port: number;
  /**
   * Stops the server the way a crash does (`pg_ctl stop -m immediate`: every backend killed, no
   * checkpoint; the next start runs crash recovery). Clients see their connections reset.
   */
  stopImmediate(): Promise<void>;
  /** Starts it again on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it (immediate) and deletes its directory. Idempotent: call it in afterAll. */
  remove(): Promise<void>;
}

/** Every wait on pg_ctl is bounded: a server that does not come up fails the test in 30 s. */
const PG_CTL_TIMEOUT_SECONDS = 30;

/**
 * Starts a fresh embedded PostgreSQL (initdb ~1 s, migrations ~1 s) in a temp directory on a free
 * loopback port, with fsync off but synchronous commits. If the test process dies before `remove()`, an exit hook kills
 * the postmaster so no server outlives the test run (the directory stays in the OS temp dir).
 */
export async function startPrivateTestServer(): Promise<PrivateTestServer> {
  const binaries = resolvePostgresBinaries();
  const runAs = await runAsPostgresUser();
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), "cyclium-pg-private-"));
  const dataDir = path.join(root, "data");
  if (runAs.uid !== undefined && runAs.gid !== undefined) {
    await fsp.chown(root, runAs.uid, runAs.gid);
  }
  const port = await freePort();
  const killOnExit = (): void => killPostmaster(dataDir);
  process.once("exit", killOnExit);

  // Not the "fast" durability of the shared test server: its synchronous_commit=off acknowledges
  // commits whose WAL an immediate stop then throws away (seen: 2 of 30 acknowledged steps gone
  // after a restart), which is not what a restarted production server does. fsync stays off
  // (ALTER SYSTEM below): the machine does not crash in a test, only the server does.
  const start = async (): Promise<void> => {
    await startCluster(binaries, dataDir, port, "durable", runAs);
  };
  const stopImmediate = async (): Promise<void> => {
    await execFileAsync(
      binaries.pgCtl,
      ["stop", "-D", dataDir, "-m", "immediate", "-w", "-t", String(PG_CTL_TIMEOUT_SECONDS)],
      runAs,
    );
  };
  let removed = false;
  const remove = async (): Promise<void> => {
    if (removed) return;
    removed = true;
    await stopImmediate().catch(() => killPostmaster(dataDir));
    process.removeListener("exit", killOnExit);
    await fsp.rm(root, { recursive: true, force: true });
  };

  try {
    await initCluster(binaries, dataDir, runAs);
    await start();
    const serverUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query("ALTER SYSTEM SET fsync = off");
      await admin.query("ALTER SYSTEM SET full_page_writes = off");
      await admin.query("SELECT pg_reload_conf()");
      await admin.query("CREATE DATABASE cyclium");
    } finally {
      await admin.end();
    }
    const url = `postgres://postgres@127.0.0.1:${port}/cyclium`;
    await migrate({ url, migrationsDir });
    return { url, port, stopImmediate, start, remove };
  } catch (error) {
    await remove().catch(() => undefined);
    throw error;
  }
}

/** SIGKILL of the postmaster named in postmaster.pid (synchronous: usable in an exit hook). */
function killPostmaster(dataDir: string): void {
  try {
    const pid = Number.parseInt(
      fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0] ?? "",
      10,
    );
    if (Number.isFinite(pid) && isPostgresProcess(pid)) process.kill(pid, "SIGKILL");
  } catch {
    // No pid file: the server is not running.
  }
}
