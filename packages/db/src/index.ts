export {
  resolveDatabase,
  type ResolveDatabaseOptions,
  type ResolvedDatabase,
} from "./connection/resolve-database";
export {
  ensureEmbeddedPostgres,
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
} from "./embedded/embedded-postgres";
export { migrate, MigrationError, readMigrations, type MigrateResult } from "./migrate";
export { dataRoot, migrationsDir, repoRoot } from "./paths";
