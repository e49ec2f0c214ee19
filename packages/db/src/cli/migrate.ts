import { resolveDatabase } from "../connection/resolve-database";
import { readDbEnv } from "../env";
import { migrate, MigrationError } from "../migrate";
import { migrationsDir } from "../paths";

// `pnpm db:migrate`: applies pending migrations to CYCLIUM_LISTEN_DATABASE_URL or DATABASE_URL, or to the embedded cluster
// (started for the occasion and stopped again when this command started it).
const env = readDbEnv();
const database = await resolveDatabase({
  // The migrator holds a session advisory lock: never through a transaction-mode pooler.
  databaseUrl: env.CYCLIUM_LISTEN_DATABASE_URL ?? env.DATABASE_URL,
  log: (m) => console.log(m),
});
try {
  const result = await migrate({ url: database.url, migrationsDir, log: (m) => console.log(m) });
  console.log(
    result.applied.length === 0
      ? `Database is up to date (${result.alreadyApplied.length} migrations applied earlier).`
      : `Applied ${result.applied.length} migration(s).`,
  );
} catch (error) {
  console.error(error instanceof MigrationError ? error.message : error);
  process.exitCode = 1;
} finally {
  if (database.embedded?.startedHere) await database.embedded.stop();
}
