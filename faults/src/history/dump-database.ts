import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { readLimitStarts } from "./limit-audit";

const ms = (column: string): string => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * What the checker reads from the database, one query per table: the episodes, the step journal,
 * the work claims and the trigger requests. Times are ms since the epoch on the database clock
 * (the real one: only worker processes are ever skewed). Ids are bigints sent as text (numbers
 * would round them); ORDER BY names the table's column, as the text alias would sort "1036"
 * before "257".
 */
const QUERIES = {
  episodes: `
SELECT id, actor_id, expectation_id, status, phase, trigger_type, dedupe_key, input, result,
       error_class, attempt, executed_by, recovery_history,
       ${ms("inserted_at")} AS inserted_at, ${ms("started_at")} AS started_at,
       ${ms("finished_at")} AS finished_at
  FROM cyclium_episodes ORDER BY inserted_at, id`,
  steps: `
SELECT s.id::text AS id, episode_id, attempt, step_no, outcome, node,
       ${ms("inserted_at")} AS inserted_at
  FROM cyclium_episode_steps s ORDER BY s.id`,
  claims: `
SELECT dedupe_key, state, owner_node, attempt, steals, error_detail
  FROM cyclium_work_claims ORDER BY id`,
  requests: `
SELECT r.id::text AS id, episode_id, status, claimed_by
  FROM cyclium_trigger_requests r ORDER BY r.id`,
} as const;

export type DumpTable = keyof typeof QUERIES;

/**
 * Writes `db/<table>.jsonl` under `dir`, so that the checker can run again without a database,
 * and `db/limit-starts.jsonl`, scenario 11's audit of its limited starts (limit-audit.ts).
 */
export async function dumpDatabase(url: string, dir: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await mkdir(path.join(dir, "db"), { recursive: true });
    const write = async (name: string, rows: readonly unknown[]) => {
      const text = rows.map((row) => JSON.stringify(row)).join("\n");
      await writeFile(path.join(dir, "db", `${name}.jsonl`), rows.length > 0 ? `${text}\n` : "");
    };
    for (const [table, sql] of Object.entries(QUERIES)) {
      await write(table, (await client.query(sql)).rows);
    }
    await write("limit-starts", await readLimitStarts(client));
  } finally {
    await client.end();
  }
}
