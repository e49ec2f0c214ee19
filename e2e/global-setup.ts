import type { FullConfig } from "@playwright/test";
import { provisionE2eDatabase } from "./support/database";
import { publishE2eTargets } from "./support/env";
import { startWeb } from "./support/processes";
import { ensureWebBuild } from "./support/web-build";

const log = (message: string) => console.log(`[e2e] ${message}`);

/**
 * Builds the console if needed, gives the run its own database, starts `next start` on a free
 * port and tells the tests where both are. Returns the teardown. Workers will be started here
 * too (`startWorker()` beside `startWeb()` in support/processes.ts).
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  ensureWebBuild(log);
  const database = await provisionE2eDatabase();
  log(`database ${new URL(database.url).pathname.slice(1)} ready`);
  let web: Awaited<ReturnType<typeof startWeb>>;
  try {
    web = await startWeb({ databaseUrl: database.url });
  } catch (error) {
    await database.release();
    throw error;
  }
  log(`web app on ${web.baseUrl} (log: ${web.logFile})`);
  publishE2eTargets({ baseUrl: web.baseUrl, databaseUrl: database.url });

  return async () => {
    await web.stop();
    await database.release();
    log("stopped the web app and dropped the database");
  };
}
