import type { FullConfig } from "@playwright/test";
import { provisionE2eDatabase } from "./support/database";
import { publishE2eTargets } from "./support/env";
import { startWeb, startWorker, type ManagedProcess } from "./support/processes";
import { seedE2eUsers } from "./support/users";
import { ensureWebBuild } from "./support/web-build";

const log = (message: string) => console.log(`[e2e] ${message}`);

/**
 * Builds the console if needed, gives the run its own database with one account per role,
 * starts `next start` and one full-mode worker on free ports and tells the tests where they
 * are. Returns the teardown, which stops them in reverse order.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  ensureWebBuild(log);
  const database = await provisionE2eDatabase();
  log(`database ${new URL(database.url).pathname.slice(1)} ready`);
  const started: ManagedProcess[] = [];
  const teardown = async () => {
    for (const process of started.reverse()) await process.stop();
    await database.release();
  };
  try {
    await seedE2eUsers(database.url);
    const web = await startWeb({ databaseUrl: database.url });
    started.push(web);
    log(`web app on ${web.baseUrl} (log: ${web.logFile})`);
    const worker = await startWorker({ databaseUrl: database.url });
    started.push(worker);
    log(`worker ${worker.identity} on ${worker.baseUrl} (log: ${worker.logFile})`);
    publishE2eTargets({
      baseUrl: web.baseUrl,
      databaseUrl: database.url,
      workerUrl: worker.baseUrl,
    });
  } catch (error) {
    await teardown();
    throw error;
  }

  return async () => {
    await teardown();
    log("stopped the worker and the web app, dropped the database");
  };
}
