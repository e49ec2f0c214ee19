import { resolveDatabase } from "@cyclium/db";
import { readCliEnv } from "./env";

/**
 * Runs `fn` against DATABASE_URL, or the embedded cluster under .data/ (started for the command
 * and stopped again when this command started it), like `pnpm db:migrate`.
 */
export async function withDatabase<T>(
  log: (message: string) => void,
  fn: (url: string) => Promise<T>,
): Promise<T> {
  const env = readCliEnv();
  const database = await resolveDatabase({ databaseUrl: env.DATABASE_URL, log });
  try {
    return await fn(database.url);
  } finally {
    if (database.embedded?.startedHere) await database.embedded.stop();
  }
}
