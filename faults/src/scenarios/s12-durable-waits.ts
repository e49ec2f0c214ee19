import { setTimeout as sleep } from "node:timers/promises";
import { deliverSignal } from "@cyclium/core/console";
import pg from "pg";
import { fireLoad } from "./fire-load";
import { killRandomWorkers } from "./nemesis";
import { pauseOnce } from "./s3-pause-worker";
import { awaitBusBack } from "./s4-restart-postgres";
import type { Scenario, ScenarioRun } from "./scenario";

/** The signal half the waiting episodes wait for (the others sleep). */
const SIGNAL = "go";

/**
 * Delivers `go` twice (one idempotency key) to the episodes waiting for it now, a batch every
 * half second until `done()`: the first wakes the wait, the second must change nothing. Errors
 * (the database restarting) are counted and the batch tried again.
 */
async function signalWaiters(
  run: ScenarioRun,
  done: () => boolean,
): Promise<{ delivered: number; duplicates: number; errors: number }> {
  const pool = new pg.Pool({ connectionString: run.databaseUrl, max: 2 });
  pool.on("error", () => undefined);
  const tally = { delivered: 0, duplicates: 0, errors: 0 };
  try {
    while (!done() && !run.signal.aborted) {
      try {
        const { rows } = await pool.query<{ id: string }>(
          `SELECT e.id FROM cyclium_episodes e JOIN cyclium_episode_waits w ON w.episode_id = e.id
            WHERE e.status = 'waiting' AND w.signal = $1 AND w.woken_at IS NULL LIMIT 20`,
          [SIGNAL],
        );
        for (const { id } of rows) {
          for (let send = 0; send < 2; send += 1) {
            const result = await deliverSignal(
              {
                episodeId: id,
                name: SIGNAL,
                payload: { go: true },
                idempotencyKey: `go:${id}`,
                sentBy: "faults",
              },
              pool,
            );
            if (result.kind === "delivered") tally.delivered += 1;
            if (result.kind === "duplicate") tally.duplicates += 1;
          }
        }
      } catch {
        tally.errors += 1;
      }
      await sleep(500);
    }
  } finally {
    await pool.end().catch(() => undefined);
  }
  return tally;
}

/**
 * Scenario 12 (issue 32): episodes that sleep, and episodes that wait for a signal (half of them
 * signalled, twice with one key; the rest time out), under a PostgreSQL restart in immediate
 * mode, a SIGSTOP of the busiest worker and `kill -9` of random workers while they wait. None
 * may be lost, none may wait or resume twice (check-waits.ts), and the common checks hold: 0
 * lost, 0 duplicated, 0 stuck.
 */
export const durableWaits: Scenario = {
  id: 12,
  name: "durable-waits",
  async run(run) {
    const count = run.quick ? 200 : 1_000;
    // Slow enough that the restart, the pause and kills all land while fires still arrive.
    const ratePerSec = run.quick ? 6 : 25;
    let firing = true;
    const load = Promise.all([
      fireLoad(run, {
        prefix: "s12-sleep",
        count: count / 2,
        ratePerSec: ratePerSec / 2,
        input: { steps: 3, stepMs: 50, waitMs: 3_000 },
      }),
      fireLoad(run, {
        prefix: "s12-signal",
        count: count / 2,
        ratePerSec: ratePerSec / 2,
        input: { steps: 3, stepMs: 50, waitMs: 6_000, waitSignal: SIGNAL },
      }),
    ]).finally(() => {
      firing = false;
    });
    let signalling = true;
    const signals = signalWaiters(run, () => !signalling);
    // The restart first (a worker booting while the server is down exits, which the kill loop's
    // restart does not expect), once episodes wait; then kills until the fires are answered.
    await sleep(run.quick ? 4_000 : 6_000);
    run.nemesis.write({ op: "nemesis", event: "pg-stop" });
    const restarted = await run.server.restartImmediately(1_000);
    run.nemesis.write({ op: "nemesis", event: "pg-start" });
    run.log(`postgres restarted while episodes wait (down ${Math.round(restarted.downForMs)} ms)`);
    await awaitBusBack(run, "w1");
    // SIGSTOP of the busiest worker for three leases: wake-up requests it claimed go back to the
    // others; when it continues, its late starts must find those episodes already resumed.
    const pause = await pauseOnce(run, 1);
    const kills = await killRandomWorkers(run, { minMs: 2_500, maxMs: 4_500, done: () => !firing });
    const [sleepers, waiters] = await load;
    // The last waiters time out 6 s after their wait began; keep signalling until then.
    await sleep(7_000);
    signalling = false;
    const sent = await signals;
    return {
      fires: count,
      kills,
      restarts: 1,
      pauses: 1,
      heldAtPause: pause.held,
      signalFires: count / 2,
      signalsDelivered: sent.delivered,
      signalDuplicates: sent.duplicates,
      signalErrors: sent.errors,
      ok: sleepers.ok + waiters.ok,
      failed: sleepers.failed + waiters.failed,
      unknown: sleepers.unknown + waiters.unknown,
    };
  },
};
