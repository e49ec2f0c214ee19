import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { ACTORS } from "../cluster/fault-actors";

/** Where the cluster's work stands: what is open, and counters that move while work progresses. */
interface Progress {
  pending: number;
  running: number;
  /** Episodes in a final status, journal rows, claim attempts: any change is progress. */
  signature: string;
}

async function readProgress(url: string): Promise<Progress | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{
      pending: number;
      running: number;
      finished: number;
      attempts: number;
      steps: number;
    }>(
      // The cron actor's episodes fire every minute whatever else happens: counting them as
      // progress would restart a 46 s stall window each minute and hide stuck work.
      // A waiting episode (SPEC 17) is open work like a pending one: its request will start it.
      `SELECT count(*) FILTER (WHERE status IN ('pending', 'waiting'))::int AS pending,
              count(*) FILTER (WHERE status = 'running')::int AS running,
              count(*) FILTER (WHERE status NOT IN ('pending', 'running', 'waiting')
                                 AND actor_id <> $1)::int AS finished,
              COALESCE(sum(attempt) FILTER (WHERE actor_id <> $1), 0)::int AS attempts,
              (SELECT count(*) FROM cyclium_episode_steps s
                 JOIN cyclium_episodes c ON c.id = s.episode_id
                WHERE c.actor_id <> $1)::int AS steps
         FROM cyclium_episodes`,
      [ACTORS.cron],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      pending: row.pending,
      running: row.running,
      signature: [row.pending, row.running, row.finished, row.attempts, row.steps].join("/"),
    };
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export type Quiescence =
  /** No episode pending or running. */
  | { kind: "drained"; waitedMs: number }
  /** Work is left open and nothing moved for `stallMs`: whatever is open now is stuck or owned. */
  | { kind: "stalled"; waitedMs: number; pending: number; running: number }
  /** Still moving at the bound (or the database unreachable): not settled. */
  | { kind: "timed_out"; waitedMs: number; pending: number; running: number };

export interface QuiescenceOptions {
  /**
   * How long nothing may move before open work counts as settled. Longer than a lease plus the
   * staleness plus a sweep interval (what recovery of a running orphan needs), several times
   * over, so a slow sweep on a loaded machine is not mistaken for a stuck one.
   */
  stallMs: number;
  /** Upper bound of the whole wait. */
  maxMs: number;
  log: (message: string) => void;
}

/**
 * Waits until the cluster is quiet: every episode final, or nothing moving for `stallMs`. No
 * fixed sleep: a loaded machine only makes this take longer, never changes what it returns for a
 * cluster that does (or does not) make progress, short of `maxMs`.
 */
export async function waitForQuiescence(
  url: string,
  options: QuiescenceOptions,
): Promise<Quiescence> {
  const started = performance.now();
  let lastLog = started;
  let signature = "";
  let movedAt = started;
  let open = { pending: 0, running: 0 };
  for (;;) {
    const progress = await readProgress(url);
    const now = performance.now();
    const waitedMs = now - started;
    if (progress !== null) {
      open = { pending: progress.pending, running: progress.running };
      if (progress.pending === 0 && progress.running === 0) return { kind: "drained", waitedMs };
      if (progress.signature !== signature) {
        signature = progress.signature;
        movedAt = now;
      } else if (now - movedAt >= options.stallMs) {
        return { kind: "stalled", waitedMs, ...open };
      }
    }
    if (waitedMs > options.maxMs) return { kind: "timed_out", waitedMs, ...open };
    if (now - lastLog > 10_000) {
      lastLog = now;
      options.log(
        progress
          ? `settling: ${progress.pending} pending, ${progress.running} running, still for ${Math.round((now - movedAt) / 1000)} s`
          : "settling: database unreachable",
      );
    }
    await sleep(250);
  }
}
