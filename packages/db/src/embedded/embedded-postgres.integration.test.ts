import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { dataRoot } from "../paths";
import { ensureEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres";
import { isProcessAlive } from "./process-alive";

// A cluster of its own, so that this file can kill and restart it without disturbing the
// server the other test files use.
const dataDir = path.join(dataRoot, "pg-embedded-test");
const started: EmbeddedPostgres[] = [];

async function select1(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ one: number }>("SELECT 1 AS one")).rows[0]?.one;
  } finally {
    await client.end();
  }
}

async function postmasterPid() {
  const content = await fs.readFile(path.join(dataDir, "postmaster.pid"), "utf8");
  return Number.parseInt(content.split("\n")[0]!, 10);
}

afterAll(async () => {
  for (const server of started) await server.stop().catch(() => undefined);
  await fs.rm(dataDir, { recursive: true, force: true });
  await fs.rm(`${dataDir}.json`, { force: true });
});

describe("ensureEmbeddedPostgres", () => {
  it("starts a cluster once and lets concurrent callers reuse it", async () => {
    const results = await Promise.all(
      Array.from({ length: 3 }, () =>
        ensureEmbeddedPostgres({ dataDir, database: "app", durability: "fast" }),
      ),
    );
    started.push(...results);

    expect(results.filter((r) => r.startedHere)).toHaveLength(1);
    expect(new Set(results.map((r) => r.port)).size).toBe(1);
    expect(await select1(results[0]!.url)).toBe(1);
  });

  it("recovers from a crash that left a stale postmaster.pid behind", async () => {
    const pid = await postmasterPid();
    process.kill(pid, "SIGKILL");
    await expect.poll(() => isProcessAlive(pid), { timeout: 10_000 }).toBe(false);
    // The lock file of the dead server is still there.
    await expect(fs.access(path.join(dataDir, "postmaster.pid"))).resolves.toBeUndefined();

    const again = await ensureEmbeddedPostgres({ dataDir, database: "app", durability: "fast" });
    started.push(again);

    expect(again.startedHere).toBe(true);
    expect(await select1(again.url)).toBe(1);
    expect(await postmasterPid()).not.toBe(pid);
  });

  it("keeps data across a stop and a start on the same port", async () => {
    const server = await ensureEmbeddedPostgres({ dataDir, database: "app", durability: "fast" });
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query("CREATE TABLE IF NOT EXISTS kept (v int)");
    await client.query("INSERT INTO kept VALUES (42)");
    await client.end();
    const port = server.port;

    await started.at(-1)!.stop();
    const restarted = await ensureEmbeddedPostgres({
      dataDir,
      database: "app",
      durability: "fast",
    });
    started.push(restarted);

    expect(restarted.startedHere).toBe(true);
    expect(restarted.port).toBe(port);
    const check = new pg.Client({ connectionString: restarted.url });
    await check.connect();
    const { rows } = await check.query("SELECT v FROM kept");
    await check.end();
    expect(rows).toEqual([{ v: 42 }]);
  });
});
