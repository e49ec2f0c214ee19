import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing";
import { migrationsDir } from "../paths";
import { migrate } from "./migrate";

// Issue 29: dynamic actors became env-scoped. A definition stored before ran in every env, so the
// migration must leave each env that has nodes running it, with the identifier now unique per env.
const MIGRATION = "20261211100000_agent_definition_env";
const opened: TestDatabase[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.drop()));
});

/** The migrations up to, not including, MIGRATION. */
async function migrationsBefore(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cyclium-migrations-"));
  for (const name of await fs.readdir(migrationsDir)) {
    if (name >= MIGRATION) continue;
    await fs.cp(path.join(migrationsDir, name), path.join(dir, name), { recursive: true });
  }
  return dir;
}

describe(MIGRATION, () => {
  it("keeps every env that has nodes running the definitions it ran before", async () => {
    const db = await createTestDatabase({ templateDatabase: "template0" });
    opened.push(db);
    const before = await migrationsBefore();
    await migrate({ url: db.url, migrationsDir: before });
    await db.pool.query(
      `INSERT INTO cyclium_agent_definitions (identifier, enabled, expectations)
       VALUES ('reporter', true, '[{"id":"a"}]'), ('paused_one', false, '[]')`,
    );
    await db.pool.query(
      `INSERT INTO cyclium_nodes (identity, kind, mode, env)
       VALUES ('w-prod', 'worker', 'full', 'prod'), ('w-prod-2', 'worker', 'full', 'prod'),
              ('w-staging', 'worker', 'full', 'staging'), ('w-default', 'worker', 'full', NULL)`,
    );

    await migrate({ url: db.url, migrationsDir });

    const { rows } = await db.pool.query<{
      identifier: string;
      env: string | null;
      enabled: boolean;
    }>(
      `SELECT identifier, env, enabled FROM cyclium_agent_definitions
        ORDER BY identifier, env NULLS FIRST`,
    );
    expect(rows).toEqual([
      { identifier: "paused_one", env: null, enabled: false },
      { identifier: "paused_one", env: "prod", enabled: false },
      { identifier: "paused_one", env: "staging", enabled: false },
      { identifier: "reporter", env: null, enabled: true },
      { identifier: "reporter", env: "prod", enabled: true },
      { identifier: "reporter", env: "staging", enabled: true },
    ]);
    // Unique per env, the unset env counting as one.
    await expect(
      db.pool.query(`INSERT INTO cyclium_agent_definitions (identifier) VALUES ('reporter')`),
    ).rejects.toThrow(/cyclium_agent_definitions_identifier_env_key/);
    await db.pool.query(
      `INSERT INTO cyclium_agent_definitions (identifier, env) VALUES ('reporter', 'qa')`,
    );
  });
});
