import { z } from "zod";

/**
 * PostgreSQL's URL schemes; unset means the embedded PostgreSQL under .data/ (SPEC section 11).
 * The same rule as `ZDatabaseUrl` of `@cyclium/core/worker`, which every app's configuration
 * uses; this package sits below core and keeps its own copy for its migrate CLI.
 */
const ZDatabaseUrl = z
  .string()
  .trim()
  .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string");

const ZDbEnv = z.object({
  DATABASE_URL: ZDatabaseUrl.optional(),
  /** A direct connection for the migrator's session advisory lock (docs/pgbouncer.md). */
  CYCLIUM_LISTEN_DATABASE_URL: ZDatabaseUrl.optional(),
});

export type TDbEnv = z.infer<typeof ZDbEnv>;

/** The database package's own configuration, for its CLI. Exits 2 naming a bad variable. */
export function readDbEnv(source: NodeJS.ProcessEnv = process.env): TDbEnv {
  const parsed = ZDbEnv.safeParse({
    DATABASE_URL: source.DATABASE_URL || undefined,
    CYCLIUM_LISTEN_DATABASE_URL: source.CYCLIUM_LISTEN_DATABASE_URL || undefined,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      console.error(`Invalid environment variable ${issue.path.join(".")}: ${issue.message}`);
    }
    process.exit(2);
  }
  return parsed.data;
}
