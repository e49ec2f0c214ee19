import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresWorkClaims } from "../claims/index";
import { spawnTestProcess, type TestProcess } from "../recovery/testing/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { DEFAULT_RETENTION_POLICY, pruneFinishedEpisodes, runPruner } from "./index";
import { seedFinishedHistory } from "./testing/index";

const PRUNER = fileURLToPath(new URL("./testing/pruner-process.ts", import.meta.url));
const DAY = 86_400_000;
let db: TestDatabase;
const processes: TestProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill("SIGKILL")));
  await db.drop();
});

const count = async (sql: string): Promise<number> =>
  (await db.pool.query<{ n: number }>(`SELECT (${sql})::int AS n`)).rows[0]?.n ?? -1;

const seedOld = (count: number, actorId: string) =>
  seedFinishedHistory(
    {
      count,
      actorId,
      finishedAgoMs: 10 * DAY,
      spreadMs: DAY,
      stepsPerEpisode: 3,
      withCheckpoint: true,
      withRequest: true,
    },
    db.pool,
  );

describe("two pruners at once", () => {
  it("delete each row once: their counts add up to what was there", async () => {
    await seedOld(3_000, "race");
    // Two connections run the batch statement side by side until both find nothing (the claim
    // that normally keeps them apart is bypassed on purpose: SKIP LOCKED alone must suffice).
    const pools = [db.newPool({ max: 1 }), db.newPool({ max: 1 })];
    try {
      const totals = await Promise.all(
        pools.map(async (pool) => {
          const total = { episodes: 0, steps: 0 };
          for (;;) {
            const batch = await pruneFinishedEpisodes(
              { actorId: "race", olderThanMs: 7 * DAY, limit: 100 },
              pool,
            );
            total.episodes += batch.episodes;
            total.steps += batch.steps;
            if (batch.episodes === 0) return total;
          }
        }),
      );
      expect(totals[0]!.episodes + totals[1]!.episodes).toBe(3_000);
      expect(totals[0]!.steps + totals[1]!.steps).toBe(9_000);
      // Both did some of the work.
      expect(Math.min(totals[0]!.episodes, totals[1]!.episodes)).toBeGreaterThan(0);
      expect(await count(`SELECT count(*) FROM cyclium_episodes WHERE actor_id = 'race'`)).toBe(0);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it("under the claim: one runs, the other is busy", async () => {
    await seedOld(500, "claimed");
    const run = (owner: string, onBatch: () => Promise<void>) =>
      runPruner(
        {
          claims: new PostgresWorkClaims({ db: db.pool }),
          owner,
          leaseSeconds: 30,
          policy: DEFAULT_RETENTION_POLICY,
          trigger: "scheduled",
          batchSize: 50,
          logger: silentLogger,
          telemetry: new Telemetry(),
          onBatch,
        },
        db.pool,
      );
    // Not a timed race: two runs sent at once may also run one after the other (the second's
    // acquire waiting for a new connection while the first prunes all 500 and releases the
    // claim), and both then answer "pruned". node-a is held before its first batch, so it holds
    // the claim for certain while node-b tries.
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const first = run("node-a", async () => {
      holding();
      await released;
    });
    await Promise.race([
      held,
      first.then((result) => {
        throw new Error(`node-a returned ${result.kind} before its first batch`);
      }),
    ]);
    const second = await run("node-b", () => {
      throw new Error("node-b pruned while node-a held the claim");
    });
    expect(second.kind).toBe("busy");
    release();
    const done = await first;
    expect(done.kind === "pruned" && done.run.deleted.episodes).toBe(500);
  });
});

describe("a pruner killed mid-batch (SIGKILL)", () => {
  it("leaves whole episodes only, and the next pruner finishes after the lease lapses", async () => {
    await seedOld(2_500, "killed");
    const child = spawnTestProcess(PRUNER, {
      DATABASE_URL: db.url,
      NODE_ID: "doomed",
      BATCH_SIZE: "200",
      LEASE_SECONDS: "2",
      APPLICATION_NAME: "doomed-pruner",
    });
    processes.push(child);
    await child.waitFor((line) => line.event === "batch" && Number(line.batches) >= 4);
    await child.kill("SIGKILL");
    // A delete the dead process had already sent still runs (and commits) on its backend; the
    // backend ends only once it notices the closed socket. Count after that, or a batch lands
    // between two counts.
    const until = Date.now() + 15_000;
    while (
      (await count(
        `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'doomed-pruner'`,
      )) > 0
    ) {
      if (Date.now() > until) throw new Error("the killed pruner's backends did not end in 15 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const left = await count(`SELECT count(*) FROM cyclium_episodes WHERE actor_id = 'killed'`);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(2_500);
    // Every episode left has its 3 steps, its checkpoint and its request; nothing of a deleted
    // episode is left (the foreign keys would refuse an orphan, and none is there).
    const partial = await count(
      `SELECT count(*) FROM cyclium_episodes e
        WHERE e.actor_id = 'killed' AND (
          (SELECT count(*) FROM cyclium_episode_steps s WHERE s.episode_id = e.id) <> 3 OR
          (SELECT count(*) FROM cyclium_episode_checkpoints c WHERE c.episode_id = e.id) <> 1 OR
          (SELECT count(*) FROM cyclium_trigger_requests r WHERE r.episode_id = e.id) <> 1)`,
    );
    expect(partial).toBe(0);
    expect(
      await count(
        `SELECT count(*) FROM cyclium_episode_steps s JOIN cyclium_episodes e ON e.id = s.episode_id WHERE e.actor_id = 'killed'`,
      ),
    ).toBe(left * 3);
    // The dead node's claim is still held; another pruner is busy until the lease lapses.
    const claims = new PostgresWorkClaims({ db: db.pool });
    const next = () =>
      runPruner(
        {
          claims,
          owner: "survivor",
          leaseSeconds: 30,
          policy: DEFAULT_RETENTION_POLICY,
          trigger: "scheduled",
          logger: silentLogger,
          telemetry: new Telemetry(),
        },
        db.pool,
      );
    let result = await next();
    const leaseLapsed = Date.now() + 10_000;
    while (result.kind === "busy" && Date.now() < leaseLapsed) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      result = await next();
    }
    expect(result.kind).toBe("pruned");
    expect(result.kind === "pruned" && result.run.deleted.episodes).toBe(left);
    expect(await count(`SELECT count(*) FROM cyclium_episodes WHERE actor_id = 'killed'`)).toBe(0);
  });
});
