import os from "node:os";
import {
  PostgresWorkClaims,
  retentionPolicyFromEnv,
  formatRetentionAge,
  runPruner,
} from "@cyclium/core/console";
import { silentLogger, Telemetry } from "@cyclium/core/worker";
import pg from "pg";
import { readPruneEnv } from "./env";
import { withDatabase } from "./with-database";

/**
 * `cyclium prune`: one pruner run now, with the policy of the environment (the workers' own
 * variables), under the same claim as the workers' timers: when a worker is pruning, this says
 * so and exits 0 rather than running beside it. Prints what it removed per family.
 */
export async function pruneCommand(
  options: { maxBatches?: number | undefined },
  log: (message: string) => void,
): Promise<void> {
  const env = readPruneEnv();
  const policy = retentionPolicyFromEnv(env);
  await withDatabase(log, async (url) => {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    try {
      const result = await runPruner(
        {
          claims: new PostgresWorkClaims({ db: pool }),
          owner: `cli-${os.hostname()}-${process.pid}`,
          leaseSeconds: 120,
          policy,
          trigger: "cli",
          requestedBy: os.userInfo().username,
          batchSize: env.CYCLIUM_PRUNER_BATCH_SIZE,
          ...(options.maxBatches === undefined ? {} : { maxBatches: options.maxBatches }),
          logger: silentLogger,
          telemetry: new Telemetry(),
        },
        pool,
      );
      if (result.kind === "busy") {
        log("A pruner is running elsewhere (claim pruner:run); nothing done.");
        return;
      }
      const { run } = result;
      log(
        `Pruned ${run.totalDeleted} rows in ${run.batches} batches, ${Math.round(run.durationMs)} ms (${run.status}); episodes kept ${formatRetentionAge(policy.episodes)}.`,
      );
      for (const [family, n] of Object.entries(run.deleted)) {
        if (n > 0) log(`  ${family}: ${n}`);
      }
    } finally {
      await pool.end();
    }
  });
}
