export { migrate, MigrationError, type MigrateOptions, type MigrateResult } from "./migrate";
export { checksumMatches, checksumOf, readMigrations, type MigrationFile } from "./read-migrations";
