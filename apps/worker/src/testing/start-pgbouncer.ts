import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@cyclium/db/testing";
import pg from "pg";

/** Debian's package installs it here; CI's `.ci/run` installs the package. */
const CANDIDATES = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"];

/** The pgbouncer binary, or undefined when it is not installed. */
export function findPgBouncer(): string | undefined {
  return CANDIDATES.find((candidate) => fs.existsSync(candidate));
}

export interface PgBouncer {
  /** Builds the pooled URL of a database on the server behind it. */
  urlFor(database: string): string;
  /** Everything pgbouncer wrote to stdout and stderr. */
  readonly output: string[];
  /** pgbouncer's admin console: SHOW POOLS, SHOW STATS (as the `pgbouncer` pseudo-database). */
  adminUrl(): string;
  stop(): Promise<void>;
}

/**
 * Starts Debian's pgbouncer in `pool_mode = transaction` in front of the server `serverUrl`
 * names, on a free loopback port: each transaction of a client may run on a different server
 * connection, so anything that leans on session state (LISTEN, session advisory locks, named
 * prepared statements, SET) breaks through it exactly as it would in production.
 */
export async function startPgBouncer(options: {
  binary: string;
  serverUrl: string;
  /** Server connections per database and user (default 8, fewer than the clients in tests). */
  poolSize?: number;
}): Promise<PgBouncer> {
  const server = new URL(options.serverUrl);
  const user = decodeURIComponent(server.username || "postgres");
  const password = decodeURIComponent(server.password);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyclium-pgbouncer-"));
  // Clients may connect as anyone (auth_type = any); every server login uses the test server's
  // own user and password, whatever authentication that server asks for.
  const target = [
    `host=${server.hostname}`,
    `port=${server.port || "5432"}`,
    `user=${user}`,
    ...(password === "" ? [] : [`password=${password}`]),
  ].join(" ");
  const config = [
    "[databases]",
    `* = ${target}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = any",
    "pool_mode = transaction",
    `default_pool_size = ${options.poolSize ?? 8}`,
    "max_client_conn = 1000",
    "admin_users = postgres",
    "ignore_startup_parameters = extra_float_digits",
    "server_reset_query =",
    "",
  ].join("\n");
  const configFile = path.join(dir, "pgbouncer.ini");
  fs.writeFileSync(configFile, config, { mode: 0o644 });
  fs.chmodSync(dir, 0o755);
  // pgbouncer refuses to run as root; -u drops to an unprivileged user (CI runs as root).
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(
    options.binary,
    [...(asRoot ? ["-u", "nobody"] : []), configFile],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const output: string[] = [];
  const collect = (chunk: Buffer) => output.push(...chunk.toString("utf8").split("\n"));
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const urlFor = (database: string) =>
    `postgresql://${encodeURIComponent(user)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(urlFor("postgres"), child);
  } catch (error) {
    await stop();
    throw new Error(`pgbouncer did not start: ${String(error)}\n${output.join("\n")}`, {
      cause: error,
    });
  }
  return { urlFor, output, adminUrl: () => urlFor("pgbouncer"), stop };
}

async function waitUntilServing(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error("pgbouncer exited");
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
