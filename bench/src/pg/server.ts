import pg from "pg";

/** Replaces the database name of a connection string. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs `work` on a fresh connection to `url`, closed afterwards (its stats flushed on exit). */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The maintenance side of the server: databases are created here (each system gets fresh ones,
 * cloned from a template it installed into once), and counters are read here, from the
 * `postgres` database, so reading them adds nothing to the counted database.
 */
export class Server {
  readonly #admin: pg.Client;

  private constructor(
    readonly serverUrl: string,
    admin: pg.Client,
    /** The bench's own cluster (embedded): its server settings are the bench's to change. */
    readonly ownCluster: boolean,
  ) {
    this.#admin = admin;
  }

  static async connect(databaseUrl: string, ownCluster = false): Promise<Server> {
    const serverUrl = withDatabase(databaseUrl, "postgres");
    const admin = new pg.Client({ connectionString: serverUrl });
    // Without a listener a lost connection would crash the process with an unhandled 'error'.
    admin.on("error", (err) =>
      process.stderr.write(`[bench] admin connection lost: ${err.message}\n`),
    );
    await admin.connect();
    const server = new Server(serverUrl, admin, ownCluster);
    // A run killed during a drain leaves autovacuum off (pauseAutovacuum): on again.
    if (ownCluster) await server.#setAutovacuum("DEFAULT").catch(() => undefined);
    return server;
  }

  urlOf(database: string): string {
    return withDatabase(this.serverUrl, database);
  }

  async createDatabase(name: string, template?: string): Promise<string> {
    await this.dropDatabase(name);
    const from = template === undefined ? "" : ` TEMPLATE ${pg.escapeIdentifier(template)}`;
    await this.#admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${from}`);
    return this.urlOf(name);
  }

  async dropDatabase(name: string): Promise<void> {
    await this.#admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  }

  /** Databases whose name starts with `prefix`. */
  async databases(prefix: string): Promise<string[]> {
    const { rows } = await this.#admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
      [prefix],
    );
    return rows.map((row) => row.datname);
  }

  /**
   * Waits until no backend is connected to `database`: backends flush their statistics when they
   * exit, and the last ones exit a moment after their client closed the socket.
   */
  async waitForNoBackends(database: string, timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.#admin.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1",
        [database],
      );
      if ((rows[0]?.n ?? 0) === 0) return;
      if (Date.now() > until) throw new Error(`backends still connected to ${database}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Committed transactions of `database` and the cluster's WAL position. */
  async counters(database: string): Promise<Counters> {
    const { rows } = await this.#admin.query<{ commits: string; wal: string; lsn: string }>(
      `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = $1)::text AS commits,
              (pg_current_wal_lsn() - '0/0'::pg_lsn)::text AS wal,
              pg_current_wal_lsn()::text AS lsn`,
      [database],
    );
    // A fresh snapshot per call, not the transaction's cached one.
    await this.#admin.query("SELECT pg_stat_clear_snapshot()");
    return {
      commits: Number(rows[0]?.commits ?? 0),
      walBytes: Number(rows[0]?.wal ?? 0),
      lsn: rows[0]?.lsn ?? "0/0",
    };
  }

  /** Runs `work` on the admin connection (the `postgres` database): cluster-wide counters. */
  withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
    return work(this.#admin);
  }

  /**
   * VACUUM (ANALYZE) of every table of `database`, as autovacuum leaves a freshly seeded table: a
   * drain then runs on the plans PostgreSQL picks with statistics, as in production (without
   * them the bench had hidden a slow plan of cyclium's end statement).
   */
  async vacuum(database: string): Promise<void> {
    await withClient(this.urlOf(database), (client) => client.query("VACUUM (ANALYZE)"));
  }

  /**
   * Best effort: autovacuum off until the returned function turns it back on. The drained rows'
   * dead versions reach autovacuum's threshold during a drain, and whether its pass falls inside
   * a run's window was timing (the second drain of a bench measured about 350 WAL bytes per
   * item more than the first, whichever ran first). Every system's window is measured without
   * it; the seed was vacuumed before. Only on the bench's own cluster (a server named by
   * DATABASE_URL keeps its settings).
   */
  async pauseAutovacuum(): Promise<() => Promise<void>> {
    const nothing = () => Promise.resolve();
    if (!this.ownCluster) return nothing;
    try {
      await this.#setAutovacuum("off");
    } catch {
      return nothing;
    }
    return () => this.#setAutovacuum("DEFAULT").catch(() => undefined);
  }

  async #setAutovacuum(value: "off" | "DEFAULT"): Promise<void> {
    await this.#admin.query(
      value === "off" ? "ALTER SYSTEM SET autovacuum = off" : "ALTER SYSTEM RESET autovacuum",
    );
    await this.#admin.query("SELECT pg_reload_conf()");
  }

  /**
   * Best effort: a checkpoint before each measured run, so every run starts with the same
   * (empty) set of dirty pages and pays the same full-page writes. Needs superuser or
   * pg_checkpoint; skipped without.
   */
  async checkpoint(): Promise<void> {
    await this.#admin.query("CHECKPOINT").catch(() => undefined);
  }

  async settings(): Promise<Record<string, string>> {
    const { rows } = await this.#admin.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings
        WHERE name IN ('server_version', 'synchronous_commit', 'fsync', 'max_connections',
                       'shared_buffers', 'wal_level')`,
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.setting]));
  }

  /** This admin connection's backend pid (its parent is the postmaster, for the CPU split). */
  async backendPid(): Promise<number | null> {
    const { rows } = await this.#admin.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    return rows[0]?.pid ?? null;
  }

  async otherClientsConnected(): Promise<boolean> {
    const { rows } = await this.#admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  close(): Promise<void> {
    return this.#admin.end();
  }
}

export interface Counters {
  commits: number;
  walBytes: number;
  /** pg_current_wal_lsn(), for reading the WAL in between with pg_walinspect. */
  lsn: string;
}
