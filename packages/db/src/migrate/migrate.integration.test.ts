import { fileURLToPath } from "node:url";
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing";
import { migrationsDir, repoRoot } from "../paths";
import { migrate, MigrationError } from "./migrate";
import { checksumOf, readMigrations } from "./read-migrations";

const execFileAsync = promisify(execFile);
const MIGRATE_CLI = fileURLToPath(new URL("../cli/migrate.ts", import.meta.url));
const opened: TestDatabase[] = [];

/** An empty database (cloned from template0, not from the migrated template). */
async function emptyDatabase() {
  const db = await createTestDatabase({ templateDatabase: "template0" });
  opened.push(db);
  return db;
}

async function copyMigrations() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cyclium-migrations-"));
  await fs.cp(migrationsDir, dir, { recursive: true });
  return dir;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.drop()));
});

describe("migrate", () => {
  it("applies every migration to a fresh database and records it the way Prisma does", async () => {
    const db = await emptyDatabase();
    const files = await readMigrations(migrationsDir);

    const result = await migrate({ url: db.url, migrationsDir });

    expect(result.applied).toEqual(files.map((f) => f.name));
    const { rows } = await db.pool.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      applied_steps_count: number;
      id: string;
    }>(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, row] of rows.entries()) {
      const file = files[i]!;
      const onDisk = await fs.readFile(path.join(migrationsDir, file.name, "migration.sql"));
      expect(row.checksum).toBe(checksumOf(onDisk.toString("utf8")));
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const tables = await db.pool.query(`SELECT to_regclass('public.cyclium_episodes') AS t`);
    expect(tables.rows[0]).toEqual({ t: "cyclium_episodes" });
  });

  it("is a no-op when run again", async () => {
    const db = await emptyDatabase();
    await migrate({ url: db.url, migrationsDir });
    const before = await db.pool.query(
      `SELECT id, finished_at FROM "_prisma_migrations" ORDER BY id`,
    );

    const again = await migrate({ url: db.url, migrationsDir });

    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied.length).toBeGreaterThan(0);
    const after = await db.pool.query(
      `SELECT id, finished_at FROM "_prisma_migrations" ORDER BY id`,
    );
    expect(after.rows).toEqual(before.rows);
  });

  it("applies each migration once when 4 processes migrate at the same time", async () => {
    const db = await emptyDatabase();
    const runs = Array.from({ length: 4 }, () =>
      // This Node with tsx's loader, resolved from here: nothing taken from PATH (no pnpm needed).
      execFileAsync(process.execPath, ["--import", import.meta.resolve("tsx"), MIGRATE_CLI], {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: db.url },
      }),
    );
    const outputs = await Promise.all(runs);

    const { rows } = await db.pool.query<{ migration_name: string; n: string }>(
      `SELECT migration_name, count(*) AS n FROM "_prisma_migrations" GROUP BY migration_name`,
    );
    const files = await readMigrations(migrationsDir);
    expect(rows).toHaveLength(files.length);
    expect(rows.every((r) => r.n === "1")).toBe(true);
    // Exactly one of the four processes applied the migrations; the others found them applied.
    const appliers = outputs.filter((o) => o.stdout.includes("Applied migration"));
    expect(appliers).toHaveLength(1);
  });

  it("refuses an applied migration whose file has changed, naming it", async () => {
    const db = await emptyDatabase();
    const dir = await copyMigrations();
    await migrate({ url: db.url, migrationsDir: dir });
    const [first] = await readMigrations(dir);
    const file = path.join(dir, first!.name, "migration.sql");
    await fs.appendFile(file, "\n-- an innocent-looking edit\n");

    const attempt = migrate({ url: db.url, migrationsDir: dir });

    await expect(attempt).rejects.toBeInstanceOf(MigrationError);
    await expect(attempt).rejects.toThrow(
      new RegExp(`${first!.name} was modified after it was applied`),
    );
  });

  it("accepts the same migration checked out with CRLF line endings", async () => {
    const db = await emptyDatabase();
    const dir = await copyMigrations();
    await migrate({ url: db.url, migrationsDir: dir });
    for (const m of await readMigrations(dir)) {
      const file = path.join(dir, m.name, "migration.sql");
      await fs.writeFile(file, m.sql.replace(/\n/g, "\r\n"));
    }
    await expect(migrate({ url: db.url, migrationsDir: dir })).resolves.toMatchObject({
      applied: [],
    });
  });

  it("rolls back a failing migration completely and records nothing for it", async () => {
    const db = await emptyDatabase();
    const dir = await copyMigrations();
    const bad = path.join(dir, "29991231000000_broken");
    await fs.mkdir(bad);
    await fs.writeFile(
      path.join(bad, "migration.sql"),
      `CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;\n`,
    );

    await expect(migrate({ url: db.url, migrationsDir: dir })).rejects.toThrow(
      /29991231000000_broken failed and was rolled back/,
    );
    const recorded = await db.pool.query(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '29991231000000_broken'`,
    );
    expect(recorded.rowCount).toBe(0);
    const table = await db.pool.query(`SELECT to_regclass('public.half_done') AS t`);
    expect(table.rows[0]).toEqual({ t: null });
  });
});
