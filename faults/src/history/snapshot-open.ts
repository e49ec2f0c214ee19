import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/**
 * The episodes still `pending` or `running` once the cluster settled, taken while it still runs
 * (the graceful stop that follows hands live queues over as trigger requests and would hide who
 * held what), each with what could still own it: an open (pending or claimed) trigger request,
 * the node whose queue holds it (`queued_by`, once core records it), the node executing it.
 * The checker decides from this file and the live identities in scenario.json which are stuck.
 */
export async function snapshotOpen(url: string, dir: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => undefined);
  await client.connect();
  try {
    // queued_by arrives with issue 18's fix; before it, no pending episode has a queue owner.
    const { rows: columns } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.columns
        WHERE table_name = 'cyclium_episodes' AND column_name = 'queued_by'`,
    );
    const queuedBy = (columns[0]?.n ?? 0) > 0 ? "e.queued_by" : "NULL::text";
    const { rows } = await client.query(
      `SELECT e.id, e.actor_id, e.status, e.trigger_type, e.source_node, e.executed_by,
              ${queuedBy} AS queued_by,
              (SELECT r.status FROM cyclium_trigger_requests r
                WHERE r.episode_id = e.id AND r.status IN ('pending', 'claimed')
                ORDER BY r.id DESC LIMIT 1) AS open_request,
              (SELECT r.claimed_by FROM cyclium_trigger_requests r
                WHERE r.episode_id = e.id AND r.status = 'claimed'
                ORDER BY r.id DESC LIMIT 1) AS request_claimed_by,
              (extract(epoch FROM now() - e.updated_at) * 1000)::float8 AS idle_ms
         FROM cyclium_episodes e
        WHERE e.status IN ('pending', 'running', 'waiting')
        ORDER BY e.inserted_at, e.id`,
    );
    await mkdir(path.join(dir, "db"), { recursive: true });
    const text = rows.map((row) => JSON.stringify(row)).join("\n");
    await writeFile(path.join(dir, "db", "open.jsonl"), rows.length > 0 ? `${text}\n` : "");
    return rows.length;
  } finally {
    await client.end().catch(() => undefined);
  }
}
