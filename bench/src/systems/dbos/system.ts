import { DBOS, DBOSClient } from "@dbos-inc/dbos-sdk";
import pg from "pg";
import { payloadOf } from "../payload";
import type { BenchSystem } from "../system";
import {
  DBOS_APP_VERSION,
  DBOS_APPLICATION,
  DBOS_QUEUE,
  DBOS_QUEUE_OPTIONS,
  DBOS_WORKFLOW,
  dbosWorkflowId,
} from "./settings";

/**
 * DBOS has no bulk enqueue: the seed enqueues one workflow at a time, SEED_BATCH to a transaction
 * (enqueueInTransaction) on SEED_LANES connections, so it does not pay a commit per item. It is
 * round-trip bound either way: ~10 s for 20,000 items on the loaded 2-core machine.
 */
const SEED_LANES = 4;
const SEED_BATCH = 500;

/**
 * Every workflow row stays in dbos.workflow_status with its status; its one step leaves a row in
 * dbos.operation_outputs. Workflow IDs are the item numbers, so an item cannot have two rows, and
 * a re-run shows as recovery_attempts > 1.
 */
const CHECK_SQL = `
SELECT count(*) FILTER (WHERE status = 'SUCCESS')::int AS completed,
       count(*) FILTER (WHERE status NOT IN ('SUCCESS', 'ENQUEUED', 'PENDING'))::int AS failed,
       count(*) FILTER (WHERE recovery_attempts > 1)::int AS recovered,
       (SELECT count(*) FROM dbos.operation_outputs)::int AS steps
  FROM dbos.workflow_status WHERE queue_name = $1`;

function createClient(url: string, poolSize: number): Promise<DBOSClient> {
  return DBOSClient.create({
    systemDatabaseUrl: url,
    systemDatabasePoolSize: poolSize,
    applicationName: DBOS_APPLICATION,
  });
}

function enqueueOptions(item: number) {
  return {
    queueName: DBOS_QUEUE,
    workflowName: DBOS_WORKFLOW,
    workflowID: dbosWorkflowId(item),
    appVersion: DBOS_APP_VERSION,
  };
}

export const dbosSystem: BenchSystem = {
  id: "dbos",
  label: "DBOS",
  settings:
    "@dbos-inc/dbos-sdk 5.3, a workflow with one step per item on a queue with workerConcurrency 500 and minPollingIntervalMs 100 (default 1,000), system pool = concurrency + 1, enqueued by DBOSClient",
  async install(url) {
    await DBOS.migrate(url);
    const client = await createClient(url, 2);
    try {
      await client.registerQueue(DBOS_QUEUE, DBOS_QUEUE_OPTIONS);
    } finally {
      await client.destroy();
    }
  },
  async seed(url, count) {
    const client = await createClient(url, 1);
    const pool = new pg.Pool({ connectionString: url, max: SEED_LANES });
    try {
      let next = 0;
      const lane = async () => {
        const connection = await pool.connect();
        try {
          for (let first = next; first < count; first = next) {
            const end = Math.min(count, first + SEED_BATCH);
            next = end;
            await connection.query("BEGIN");
            for (let item = first; item < end; item += 1) {
              await client.enqueueInTransaction(connection, enqueueOptions(item), payloadOf(item));
            }
            await connection.query("COMMIT");
          }
        } finally {
          connection.release();
        }
      };
      await Promise.all(Array.from({ length: SEED_LANES }, lane));
    } finally {
      await pool.end();
      await client.destroy();
    }
  },
  remainingSql: `SELECT count(*)::int AS remaining FROM dbos.workflow_status
                  WHERE queue_name = '${DBOS_QUEUE}' AND status IN ('ENQUEUED', 'PENDING')`,
  async check(client, count) {
    const { rows } = await client.query<{
      completed: number;
      failed: number;
      recovered: number;
      steps: number;
    }>(CHECK_SQL, [DBOS_QUEUE]);
    const row = rows[0];
    if (row === undefined) return { completed: 0, problems: ["check query returned no row"] };
    const problems: string[] = [];
    if (row.completed !== count) problems.push(`completed = ${row.completed}, expected ${count}`);
    if (row.steps !== row.completed)
      problems.push(`steps = ${row.steps}, expected ${row.completed}`);
    if (row.failed !== 0) problems.push(`${row.failed} workflows failed`);
    if (row.recovered !== 0) problems.push(`${row.recovered} workflows ran more than once`);
    return { completed: row.completed, problems };
  },
  async createFirer(url) {
    const client = await createClient(url, 2);
    return {
      async fire(item) {
        await client.enqueue(enqueueOptions(item), payloadOf(item));
      },
      close: () => client.destroy(),
    };
  },
};
