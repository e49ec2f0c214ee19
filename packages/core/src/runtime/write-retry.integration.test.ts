import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgBus } from "../bus/index";
import { EPISODE_EVENT_TOPICS } from "../episodes/episode-events";
import {
  createWriteRetryRig,
  cutAfterCommit,
  loadOutcomes,
  within,
} from "./testing/write-retry-rig";

let db: TestDatabase;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
  await db.drop();
});

/** A pool like the worker's (only an idle-client 'error' listener), named so it can be found. */
function workerPool(applicationName: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: db.url,
    max: 10,
    application_name: applicationName,
  });
  pool.on("error", () => undefined);
  pools.push(pool);
  return pool;
}

describe("LocalRunner writes and transient database errors", () => {
  it("completes every episode once on the same node while its pool's backends are terminated mid-journal", async () => {
    const worker = workerPool("retry-terminated");
    const rig = createWriteRetryRig({ worker, harness: db.pool, leaseSeconds: 6 });
    // 12 episodes x 20 steps of 40 ms: ~1 s of journal writes, 20 per episode.
    const episodes = await rig.createEpisodes(12, { steps: 20, stepMs: 40 });
    const runs = Promise.all(episodes.map((episode) => rig.runner.run(episode)));

    let terminated = 0;
    for (let round = 0; round < 8; round += 1) {
      await sleep(100);
      const { rows } = await db.pool.query<{ n: number }>(
        `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n
           FROM pg_stat_activity
          WHERE application_name = 'retry-terminated' AND datname = current_database()`,
      );
      terminated += rows[0]?.n ?? 0;
    }
    const results = await within(20_000, "the runs", runs);

    expect(terminated).toBeGreaterThan(0);
    expect(rig.retries.length).toBeGreaterThan(0);
    expect(results.map((result) => result.kind)).toEqual(episodes.map(() => "completed"));
    const outcomes = await loadOutcomes(
      db.pool,
      episodes.map((episode) => episode.id),
    );
    for (const outcome of outcomes) {
      // Done here, at the first attempt: nobody took it over, no step journaled twice, and the
      // usage counters moved once per step (a doubled step would make turns_used 21).
      expect(outcome).toMatchObject({
        status: "completed",
        executed_by: rig.node,
        claim_attempt: 1,
        steps: 20,
        distinct_steps: 20,
        turns_used: 20,
        step_attempts: [1],
      });
    }
  });

  it("resends a start, a step and an end whose commits lost their replies without doing anything twice", async () => {
    const bus = await PgBus.start({ db: db.pool, connection: db.url, cleanup: false });
    try {
      const completedEvents = new Map<string, number>();
      bus.subscribe(EPISODE_EVENT_TOPICS.completed, (event) => {
        const id = (event.payload as { episodeId: string }).episodeId;
        completedEvents.set(id, (completedEvents.get(id) ?? 0) + 1);
      });
      // The first statement of each kind commits and then loses its reply.
      const seen = new Set<string>();
      const once = (kind: string, matches: boolean): boolean => {
        if (!matches || seen.has(kind)) return false;
        seen.add(kind);
        return true;
      };
      const worker = cutAfterCommit(workerPool("retry-ambiguous"), db.pool, (text) => {
        const journal = text.includes("INSERT INTO cyclium_episode_steps");
        return (
          // Both start statements (claim row or the episode's own lease) read this input.
          once("start", text.includes("AS t(episode_id, claim_key, resend, run_traceparent)")) ||
          once("step", journal && text.includes("usage AS")) ||
          once("end", journal && text.includes("ended AS ("))
        );
      });
      const rig = createWriteRetryRig({ worker, harness: db.pool, leaseSeconds: 6, bus });
      const episodes = await rig.createEpisodes(4, { steps: 3, stepMs: 0 });

      const results = await within(
        15_000,
        "the runs",
        Promise.all(episodes.map((episode) => rig.runner.run(episode))),
      );
      // Events travel by NOTIFY on commit; give a second one, if any were sent, time to arrive.
      await sleep(500);

      expect(worker.cuts).toHaveLength(3);
      expect(new Set(rig.retries.map((event) => event.metadata.write))).toEqual(
        new Set(["start", "step", "end"]),
      );
      expect(results.map((result) => result.kind)).toEqual(episodes.map(() => "completed"));
      for (const episode of episodes) expect(completedEvents.get(episode.id)).toBe(1);
      const outcomes = await loadOutcomes(
        db.pool,
        episodes.map((episode) => episode.id),
      );
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({
          status: "completed",
          executed_by: rig.node,
          claim_attempt: 1,
          steps: 3,
          distinct_steps: 3,
          turns_used: 3,
          step_attempts: [1],
        });
      }
    } finally {
      await bus.close();
    }
  });
});
