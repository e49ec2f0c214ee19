import path from "node:path";
import { ensureEmbeddedPostgres, type EmbeddedPostgres } from "../embedded/embedded-postgres";
import { dataRoot } from "../paths";

export interface ResolveDatabaseOptions {
  /** The configured DATABASE_URL; when unset, the checkout's embedded cluster is used. */
  databaseUrl?: string | undefined;
  /** Data directory of the embedded cluster (default `<checkout>/.data/pg`). */
  dataDir?: string;
  log?: (message: string) => void;
}

export interface ResolvedDatabase {
  url: string;
  /** Set when the embedded cluster is in use. */
  embedded?: EmbeddedPostgres;
}

/**
 * DATABASE_URL when it is set (nothing is started), else the embedded PostgreSQL of this
 * checkout, started or reused, so that the console, the worker and scripts share one database.
 */
export async function resolveDatabase(
  options: ResolveDatabaseOptions = {},
): Promise<ResolvedDatabase> {
  if (options.databaseUrl) return { url: options.databaseUrl };
  const embedded = await ensureEmbeddedPostgres({
    dataDir: options.dataDir ?? path.join(dataRoot, "pg"),
    database: "cyclium",
    // A fixed default port (when free) so that psql and GUI clients find the dev database.
    port: 54329,
    ...(options.log ? { log: options.log } : {}),
  });
  return { url: embedded.url, embedded };
}
