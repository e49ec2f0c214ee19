import { migrate, migrationsDir } from "@cyclium/db";
import { withDatabase } from "./with-database";

/** `cyclium migrate`: applies the pending migrations, as `pnpm db:migrate` does. */
export async function migrateCommand(log: (message: string) => void): Promise<void> {
  await withDatabase(
    log,
    async (url) => {
      const result = await migrate({ url, migrationsDir, log });
      log(
        result.applied.length === 0
          ? `Database is up to date (${result.alreadyApplied.length} migrations applied earlier).`
          : `Applied ${result.applied.length} migration(s).`,
      );
    },
    { direct: true },
  );
}
