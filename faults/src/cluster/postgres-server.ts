import { readFile, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { dataRoot, ensureEmbeddedPostgres, migrate, migrationsDir } from "@cyclium/db";
import pg from "pg";

const DIR_PREFIX = "pg-faults-";
const TEMPLATE = "faults_template";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Replaces the database name of a connection string. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * The suite's own PostgreSQL: a private embedded cluster per lane (`.data/pg-faults-<pid>-<lane>`), since
 * scenario 4 crashes and restarts it, which nobody else's database should suffer. Durable
 * (fsync and synchronous commit on): with `fast` settings an immediate stop may lose commits the
 * server already acknowledged, and the checker would blame the product for the test bed.
 */
export class PostgresServer {
  #serverUrl: string;
  readonly #dataDir: string;
  readonly #log: (message: string) => void;
  #stop: () => Promise<void>;

  private constructor(
    dataDir: string,
    serverUrl: string,
    stop: () => Promise<void>,
    log: (message: string) => void,
  ) {
    this.#dataDir = dataDir;
    this.#serverUrl = serverUrl;
    this.#stop = stop;
    this.#log = log;
  }

  /** `lane`: the suite's lanes each run a server of their own (`.data/pg-faults-<pid>-<lane>`). */
  static async start(log: (message: string) => void, lane = 0): Promise<PostgresServer> {
    await removeLeftovers(log);
    const dataDir = path.join(dataRoot, `${DIR_PREFIX}${process.pid}-${lane}`);
    const embedded = await ensureEmbeddedPostgres({ dataDir, database: TEMPLATE, log });
    await migrate({ url: withDatabase(embedded.serverUrl, TEMPLATE), migrationsDir });
    return new PostgresServer(dataDir, embedded.serverUrl, () => embedded.stop(), log);
  }

  get serverUrl(): string {
    return this.#serverUrl;
  }

  get port(): number {
    return Number(new URL(this.#serverUrl).port);
  }

  /** A fresh, migrated database for one scenario. */
  async createDatabase(name: string): Promise<string> {
    await this.admin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      await client.query(
        `CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(TEMPLATE)}`,
      );
    });
    return withDatabase(this.#serverUrl, name);
  }

  async dropDatabase(name: string): Promise<void> {
    await this.admin((client) =>
      client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
    );
  }

  /**
   * `pg_ctl stop -m immediate`: SIGQUIT to the postmaster, which kills every backend at once
   * without a checkpoint (a crash, as far as the data is concerned), then a start that replays
   * the WAL. Returns how long the server was unreachable.
   */
  async restartImmediately(downMs: number): Promise<{ downForMs: number }> {
    const pidFile = await readFile(path.join(this.#dataDir, "postmaster.pid"), "utf8");
    const pid = Number.parseInt(pidFile.split("\n")[0] ?? "", 10);
    const stoppedAt = performance.now();
    process.kill(pid, "SIGQUIT");
    while (isAlive(pid)) await sleep(50);
    await sleep(downMs);
    this.#log(`postgres ${pid} stopped (immediate); starting again`);
    const embedded = await ensureEmbeddedPostgres({
      dataDir: this.#dataDir,
      database: TEMPLATE,
      log: this.#log,
    });
    this.#serverUrl = embedded.serverUrl;
    this.#stop = () => embedded.stop();
    return { downForMs: performance.now() - stoppedAt };
  }

  /**
   * `pg_terminate_backend` of every connection a worker opened (by its application_name): its
   * pool and its LISTEN connection see the server close them mid-flight. Returns how many.
   */
  async terminateConnections(applicationName: string): Promise<number> {
    const { rows } = await this.admin((client) =>
      client.query<{ n: number }>(
        `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n
           FROM pg_stat_activity WHERE application_name = $1`,
        [applicationName],
      ),
    );
    return rows[0]?.n ?? 0;
  }

  /** Stops the cluster and deletes its data. */
  async destroy(): Promise<void> {
    await this.#stop().catch((error: unknown) => this.#log(`stop failed: ${String(error)}`));
    await rm(this.#dataDir, { recursive: true, force: true });
    await rm(`${this.#dataDir}.json`, { force: true });
    await rm(`${this.#dataDir}.lock`, { force: true });
  }

  async admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: this.#serverUrl });
    client.on("error", () => undefined);
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

async function servesDirectory(pid: number, dataDir: string): Promise<boolean> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
  return cmdline.includes("postgres") && cmdline.includes(dataDir);
}

/** Clusters of earlier runs whose orchestrator died (Ctrl-C, a crash): stopped and removed. */
async function removeLeftovers(log: (message: string) => void): Promise<void> {
  const entries = await readdir(dataRoot).catch(() => [] as string[]);
  for (const entry of entries) {
    const match = new RegExp(`^${DIR_PREFIX}(\\d+)(?:-\\d+)?$`).exec(entry);
    const owner = Number(match?.[1]);
    if (!match || isAlive(owner)) continue;
    const dataDir = path.join(dataRoot, entry);
    const pidText = await readFile(path.join(dataDir, "postmaster.pid"), "utf8").catch(() => "");
    const postmaster = Number.parseInt(pidText.split("\n")[0] ?? "", 10);
    // Only a postmaster serving that very directory: a stale pid may belong to anyone by now.
    if (Number.isInteger(postmaster) && (await servesDirectory(postmaster, dataDir))) {
      process.kill(postmaster, "SIGQUIT");
      while (isAlive(postmaster)) await sleep(50);
    }
    log(`removing the cluster of an earlier run: ${entry}`);
    await rm(dataDir, { recursive: true, force: true });
    await rm(`${dataDir}.json`, { force: true });
    await rm(`${dataDir}.lock`, { force: true });
  }
}
