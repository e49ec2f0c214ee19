import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { withFileLock } from "./file-lock";
import { resolvePostgresBinaries, type PostgresBinaries } from "./postgres-binaries";
import { isPostgresProcess } from "./process-alive";
import { runAsPostgresUser, type RunAs } from "./postgres-user";

const execFileAsync = promisify(execFile);

export interface EmbeddedPostgresOptions {
  /** The cluster's data directory, e.g. `<checkout>/.data/pg`. */
  dataDir: string;
  /** The database to create and connect to. */
  database?: string;
  /** A port to prefer on first start; later starts reuse the port recorded beside the data. */
  port?: number;
  /**
   * `fast` turns off fsync and synchronous commit: for throwaway test clusters only, never for
   * data anyone keeps (a crash can corrupt such a cluster).
   */
  durability?: "durable" | "fast";
  log?: (message: string) => void;
}

export interface EmbeddedPostgres {
  /** Connection string of `database`. */
  url: string;
  /** Connection string of the maintenance database `postgres`, for CREATE/DROP DATABASE. */
  serverUrl: string;
  port: number;
  /** True when this call started the server; only the starter should stop it. */
  startedHere: boolean;
  stop(): Promise<void>;
}

interface ClusterState {
  port: number;
}

const USER = "postgres";

/**
 * Starts the embedded PostgreSQL cluster in `dataDir`, or finds it already running (started by
 * another process of the same checkout) and reuses it. A lock file serialises concurrent callers,
 * and a postmaster.pid left by a crashed server is removed before starting again.
 */
export async function ensureEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? "cyclium";
  const log = options.log ?? (() => undefined);
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const binaries = resolvePostgresBinaries();

  return withFileLock(`${dataDir}.lock`, async () => {
    const runAs = await runAsPostgresUser();
    if (!(await exists(path.join(dataDir, "PG_VERSION")))) {
      log(`Initialising embedded PostgreSQL in ${dataDir}`);
      await initCluster(binaries, dataDir, runAs);
    }
    let port = await runningPort(dataDir);
    let startedHere = false;
    if (port === undefined) {
      port = await choosePort(dataDir, options.port);
      log(`Starting embedded PostgreSQL on 127.0.0.1:${port}`);
      await startCluster(binaries, dataDir, port, options.durability ?? "durable", runAs);
      startedHere = true;
    } else {
      log(`Reusing embedded PostgreSQL already running on 127.0.0.1:${port}`);
    }
    const serverUrl = `postgres://${USER}@127.0.0.1:${port}/postgres`;
    await ensureDatabase(serverUrl, database);
    const runningPortNumber = port;
    return {
      url: `postgres://${USER}@127.0.0.1:${port}/${database}`,
      serverUrl,
      port,
      startedHere,
      stop: () => stopCluster(binaries, dataDir, runAs, runningPortNumber),
    };
  });
}

export async function initCluster(binaries: PostgresBinaries, dataDir: string, runAs: RunAs) {
  await fs.rm(dataDir, { recursive: true, force: true });
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (runAs.uid !== undefined && runAs.gid !== undefined) {
    await fs.chown(dataDir, runAs.uid, runAs.gid);
  }
  try {
    // Trust auth on a loopback-only listener: this cluster is the local default for development
    // and tests. Production points DATABASE_URL at a real server.
    await execFileAsync(
      binaries.initdb,
      [
        `--pgdata=${dataDir}`,
        "--auth=trust",
        `--username=${USER}`,
        "--encoding=UTF8",
        "--no-locale",
      ],
      runAs,
    );
  } catch (error) {
    await fs.rm(dataDir, { recursive: true, force: true });
    throw new Error(`initdb failed for ${dataDir}: ${describe(error)}`, { cause: error });
  }
}

/** The port of the server running on `dataDir`, or undefined (removing a stale postmaster.pid). */
async function runningPort(dataDir: string): Promise<number | undefined> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  const content = await fs.readFile(pidFile, "utf8").catch(() => undefined);
  if (content === undefined) return undefined;
  const lines = content.split("\n");
  const pid = Number.parseInt(lines[0] ?? "", 10);
  const port = Number.parseInt(lines[3] ?? "", 10);
  if (Number.isFinite(pid) && isPostgresProcess(pid) && Number.isFinite(port)) {
    if (await acceptsConnections(port)) return port;
  }
  // The server that wrote this file is gone (crash, kill -9, machine restart).
  await fs.rm(pidFile, { force: true });
  return undefined;
}

async function choosePort(dataDir: string, preferred: number | undefined): Promise<number> {
  const stateFile = `${dataDir}.json`;
  const state = await fs
    .readFile(stateFile, "utf8")
    .then((text) => JSON.parse(text) as ClusterState)
    .catch(() => undefined);
  for (const candidate of [state?.port, preferred]) {
    if (candidate !== undefined && (await portIsFree(candidate))) {
      await fs.writeFile(stateFile, JSON.stringify({ port: candidate }));
      return candidate;
    }
  }
  const port = await freePort();
  await fs.writeFile(stateFile, JSON.stringify({ port }));
  return port;
}

export async function startCluster(
  binaries: PostgresBinaries,
  dataDir: string,
  port: number,
  durability: "durable" | "fast",
  runAs: RunAs,
) {
  const settings = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    "-c unix_socket_directories=''",
    // Tests open many connections at once (50 concurrent claimers per test, several files).
    "-c max_connections=400",
    ...(durability === "fast"
      ? ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
      : []),
  ];
  try {
    await execFileAsync(
      binaries.pgCtl,
      [
        "start",
        "-D",
        dataDir,
        "-l",
        path.join(dataDir, "server.log"),
        "-w",
        "-t",
        "60",
        "-o",
        settings.join(" "),
      ],
      runAs,
    );
  } catch (error) {
    const serverLog = await fs.readFile(path.join(dataDir, "server.log"), "utf8").catch(() => "");
    throw new Error(
      `Could not start embedded PostgreSQL: ${describe(error)}\n${serverLog.split("\n").slice(-15).join("\n")}`,
      { cause: error },
    );
  }
}

async function stopCluster(
  binaries: PostgresBinaries,
  dataDir: string,
  runAs: RunAs,
  port: number,
) {
  if (!(await acceptsConnections(port))) return;
  await execFileAsync(binaries.pgCtl, ["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60"], {
    ...runAs,
  }).catch((error: unknown) => {
    throw new Error(`Could not stop embedded PostgreSQL: ${describe(error)}`, { cause: error });
  });
}

async function ensureDatabase(serverUrl: string, database: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) {
      await client
        .query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`)
        .catch((error: unknown) => {
          // 42P04 duplicate_database: another process created it between our check and create.
          if ((error as { code?: string }).code !== "42P04") throw error;
        });
    }
  } finally {
    await client.end();
  }
}

async function acceptsConnections(port: number): Promise<boolean> {
  const client = new pg.Client({
    connectionString: `postgres://${USER}@127.0.0.1:${port}/postgres`,
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A TCP port that was free a moment ago (the OS picks it), for a child to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

async function exists(file: string) {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

function describe(error: unknown): string {
  if (error && typeof error === "object" && "stderr" in error && typeof error.stderr === "string") {
    return error.stderr.trim() || (error instanceof Error ? error.message : "unknown error");
  }
  return error instanceof Error ? error.message : String(error);
}
