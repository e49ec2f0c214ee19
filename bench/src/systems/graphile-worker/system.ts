import { makeWorkerUtils, runMigrations } from "graphile-worker";
import { payloadOf } from "../payload";
import type { BenchSystem } from "../system";
import { GRAPHILE_TASK } from "./settings";

/** addJobs of 20,000 specs is one statement; slices keep its JSON parameter a few MB at most. */
const SEED_SLICE = 10_000;

export const graphileWorkerSystem: BenchSystem = {
  id: "graphile-worker",
  label: "graphile-worker",
  settings:
    "graphile-worker 0.18, concurrentJobs = concurrency, maxPoolSize = concurrency + 1, localQueue 500, completeJobBatchDelay 0",
  async install(url) {
    await runMigrations({ connectionString: url });
  },
  async seed(url, count) {
    const utils = await makeWorkerUtils({ connectionString: url });
    try {
      for (let first = 0; first < count; first += SEED_SLICE) {
        const specs = Array.from({ length: Math.min(SEED_SLICE, count - first) }, (_, i) => ({
          identifier: GRAPHILE_TASK,
          payload: payloadOf(first + i),
        }));
        await utils.addJobs(specs);
      }
    } finally {
      await utils.release();
    }
  },
  // A completed job is deleted: what is left is what has not completed.
  remainingSql: "SELECT count(*)::int AS remaining FROM graphile_worker._private_jobs",
  async check(client, count) {
    const { rows } = await client.query<{ remaining: number; failed: number }>(
      `SELECT count(*)::int AS remaining,
              count(*) FILTER (WHERE last_error IS NOT NULL)::int AS failed
         FROM graphile_worker._private_jobs`,
    );
    const remaining = rows[0]?.remaining ?? count;
    const failed = rows[0]?.failed ?? 0;
    const problems: string[] = [];
    if (remaining !== 0) problems.push(`${remaining} jobs left in the queue`);
    if (failed !== 0) problems.push(`${failed} jobs failed`);
    return { completed: count - remaining, problems };
  },
  async createFirer(url) {
    const utils = await makeWorkerUtils({ connectionString: url });
    return {
      async fire(item) {
        await utils.addJob(GRAPHILE_TASK, payloadOf(item));
      },
      async close() {
        await utils.release();
      },
    };
  },
};
