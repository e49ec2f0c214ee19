import { resolveDatabase } from "@cyclium/db";
import { readCliEnv } from "./env";

/**
 * Runs `fn` against DATABASE_URL, or the embedded cluster under .data/ (started for the command
 * and stopped again when this command started it), like `pnpm db:migrate`.
 */
export async function withDatabase<T>(
  log: (message: string) => void,
  fn: (url: string) => Promise<T>,
  options: { direct?: boolean } = {},
): Promise<T> {
  const env = readCliEnv();
  // `direct`: a session of its own (the migrator's advisory lock), never through a pooler.
  const databaseUrl =
    options.direct === true
      ? (env.CYCLIUM_LISTEN_DATABASE_URL ?? env.DATABASE_URL)
      : env.DATABASE_URL;
  const database = await resolveDatabase({ databaseUrl, log });
  try {
    return await fn(database.url);
  } finally {
    if (database.embedded?.startedHere) await database.embedded.stop();
  }
}
