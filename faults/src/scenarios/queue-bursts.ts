import pg from "pg";
import type { WorkerSlot } from "../cluster/cluster";
import type { FireBatchResult } from "../cluster/commands";
import { ACTORS, BURST_TOPIC } from "../cluster/fault-actors";
import type { TRunInput } from "../cluster/recorded-strategy";
import type { ScenarioRun } from "./scenario";

/**
 * Four steps of 200 ms: with one or two slots per node, a burst of 16 fires keeps a worker's
 * queue non-empty for about 6 s, so a fault right after the burst catches a dozen episodes
 * waiting in memory (issue 18 measured with the same limits).
 */
export const QUEUED_INPUT: TRunInput = { steps: 4, stepMs: 200 };
const QUEUED_ACTORS = [ACTORS.queuedRestart, ACTORS.queuedFail];

export interface BurstOptions {
  /** Unique per burst: keys are `${prefix}-${identity}-${i}`. */
  prefix: string;
  /** Fires per worker, alternating the one-slot restart actor and the two-slot fail actor. */
  perWorker: number;
  /** Events published to the one-slot actor on every node (the winner of each queues it). */
  events: number;
}

export interface Burst {
  /** Each worker's answer to its burst, by slot; rejects never (a killed worker answers null). */
  perWorker: Map<WorkerSlot, Promise<FireBatchResult | null>>;
  events: Promise<number>;
}

/**
 * A burst: every worker that is up fires `perWorker` episodes of the queued actors locally (full
 * mode: each waits in that node's in-memory queue behind one or two slots, with no trigger
 * request), and the writer publishes `events` bus events that every node races to fire. The
 * fires are answered as soon as each episode is created and queued.
 */
export function burst(run: ScenarioRun, options: BurstOptions): Burst {
  run.nemesis.write({ op: "nemesis", event: "burst" });
  const perWorker = new Map<WorkerSlot, Promise<FireBatchResult | null>>();
  for (const slot of run.cluster.workers.filter((w) => w.child.ready)) {
    const reply = slot.child
      .request<FireBatchResult>(
        {
          cmd: "fire-batch",
          prefix: `${options.prefix}-${slot.identity}`,
          count: options.perWorker,
          ratePerSec: 400,
          concurrency: 4,
          failEvery: 0,
          actors: QUEUED_ACTORS,
          input: QUEUED_INPUT,
          retryForMs: 30_000,
        },
        120_000,
      )
      .catch(() => null);
    perWorker.set(slot, reply);
  }
  const events =
    options.events === 0
      ? Promise.resolve(0)
      : run.cluster.writer
          .request<number>(
            {
              cmd: "publish-batch",
              topic: BURST_TOPIC,
              prefix: `${options.prefix}-ev`,
              count: options.events,
              concurrency: 8,
              input: { steps: 2, stepMs: 150 },
            },
            120_000,
          )
          .catch(() => 0);
  return { perWorker, events };
}

/** Waits for every answer of a burst. */
export async function settleBurst(b: Burst): Promise<{ fired: number; events: number }> {
  const replies = await Promise.all(b.perWorker.values());
  const fired = replies.reduce((sum, reply) => sum + (reply?.ok ?? 0), 0);
  return { fired, events: await b.events };
}

/** Pending, created by one of the nodes, never deferred: fired there and queued there. */
const unrequested = `(e.source_node = ANY($1)
  AND NOT EXISTS (SELECT 1 FROM cyclium_trigger_requests r WHERE r.episode_id = e.id))`;

/**
 * Pending episodes a node holds in its own queue right now: recorded as queued by it (issue 18's
 * fix), or, before that column exists, created by it with no trigger request at all (fired here
 * and queued here). Null while the database cannot be reached.
 */
export async function queuedOn(url: string, identities: readonly string[]): Promise<number | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows: columns } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.columns
        WHERE table_name = 'cyclium_episodes' AND column_name = 'queued_by'`,
    );
    const owner =
      (columns[0]?.n ?? 0) > 0
        ? `(e.queued_by = ANY($1) OR (e.queued_by IS NULL AND ${unrequested}))`
        : unrequested;
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_episodes e
        WHERE e.status = 'pending' AND ${owner}`,
      [identities],
    );
    return rows[0]?.n ?? 0;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}
