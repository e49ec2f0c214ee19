import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryBus } from "../bus/index";
import { PostgresWorkClaims } from "../claims/index";
import { Telemetry, type TelemetryEvent } from "../telemetry/index";
import { sweepOrphanedEpisodes, type RecoveryConfig } from "./recovery-sweep";
import type { RecoveryTarget } from "./recovery-target";
import { seedStaleEpisodes } from "./testing/index";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

beforeEach(async () => {
  await db.pool.query(
    "TRUNCATE cyclium_episodes, cyclium_work_claims, cyclium_agent_definitions CASCADE",
  );
});

interface EpisodeState {
  id: string;
  status: string;
  phase: string | null;
  attempt: number;
  error_class: string | null;
  started_at: Date | null;
  recovery_history: {
    at: string;
    node: string;
    policy: string;
    outcome: string;
    reason?: string;
  }[];
}

async function episodes(ids?: string[]): Promise<EpisodeState[]> {
  const { rows } = await db.pool.query<EpisodeState>(
    `SELECT id, status, phase, attempt, error_class, started_at, recovery_history
       FROM cyclium_episodes WHERE $1::uuid[] IS NULL OR id = ANY($1::uuid[]) ORDER BY id`,
    [ids ?? null],
  );
  return rows;
}

function recordingTarget(): RecoveryTarget & { enqueued: string[] } {
  const enqueued: string[] = [];
  return {
    enqueued,
    takeOwned: (episodes) => {
      enqueued.push(...episodes.map((episode) => episode.id));
      return Promise.resolve();
    },
  };
}

const restartAll = { recoveryPolicyFor: () => "restart" as const };

function config(overrides: Partial<RecoveryConfig> = {}): RecoveryConfig {
  return { db: db.pool, node: "sweeper-1", scope: { stack: null, env: null }, ...overrides };
}

describe("recovery sweep", () => {
  it("restarts a restart-policy orphan onto the live actor's queue and records it", async () => {
    const [id] = await seedStaleEpisodes({ count: 1, withSteps: true }, db.pool);
    const target = recordingTarget();
    const telemetry = new Telemetry();
    const events: TelemetryEvent[] = [];
    telemetry.subscribe((event) => events.push(event));

    const result = await sweepOrphanedEpisodes(config({ registry: restartAll, target, telemetry }));

    expect(result).toMatchObject({ found: 1, claimed: 1, restarted: 1, failed: 0, skipped: 0 });
    expect(target.enqueued).toEqual([id]);
    const [row] = await episodes();
    expect(row).toMatchObject({ status: "pending", phase: "recovered", attempt: 2 });
    // Owned by the sweeping node's queue in the same transaction: never pending without owner.
    const { rows: owners } = await db.pool.query<{ queued_by: string | null }>(
      "SELECT queued_by FROM cyclium_episodes WHERE id = $1",
      [id],
    );
    expect(owners).toEqual([{ queued_by: "sweeper-1" }]);
    expect(row?.started_at).toBeNull();
    expect(row?.recovery_history).toEqual([
      expect.objectContaining({ node: "sweeper-1", policy: "restart", outcome: "restarted" }),
    ]);
    const sweep = events.find((event) => event.name === "cyclium.recovery.sweep");
    expect(sweep?.measurements).toMatchObject({
      found: 1,
      claimed: 1,
      restarted: 1,
      failed: 0,
      skipped: 0,
    });
  });

  it("fails fail-policy and unknown-actor orphans as orphaned and announces them", async () => {
    await seedStaleEpisodes({ count: 1, actorId: "known" }, db.pool);
    await seedStaleEpisodes({ count: 1, actorId: "ghost" }, db.pool);
    const bus = new MemoryBus();
    const published: unknown[] = [];
    bus.subscribe("episode.failed", (event) => {
      published.push(event.payload);
    });
    const registry = {
      recoveryPolicyFor: (actorId: string) => (actorId === "known" ? ("fail" as const) : undefined),
    };

    const result = await sweepOrphanedEpisodes(config({ registry, bus }));
    await bus.drain();

    expect(result).toMatchObject({ found: 2, claimed: 2, restarted: 0, failed: 2 });
    const rows = await episodes();
    expect(rows.map((row) => [row.status, row.error_class])).toEqual([
      ["failed", "orphaned"],
      ["failed", "orphaned"],
    ]);
    expect(rows.flatMap((row) => row.recovery_history.map((entry) => entry.reason)).sort()).toEqual(
      ["policy", "unknown_actor"],
    );
    expect(published).toHaveLength(2);
    expect(published[0]).toMatchObject({ status: "failed", errorClass: "orphaned" });
  });

  it("takes policies of dynamic actors from cyclium_agent_definitions, or from resolvePolicy", async () => {
    await db.pool.query(
      `INSERT INTO cyclium_agent_definitions (identifier, expectations)
       VALUES ('dyn', '[{"id":"check_resource_limits","strategy":"s",
                         "trigger":{"manual":true},"recoveryPolicy":"restart"}]')`,
    );
    await seedStaleEpisodes({ count: 1, actorId: "dyn" }, db.pool);
    const target = recordingTarget();
    const first = await sweepOrphanedEpisodes(config({ target }));
    expect(first).toMatchObject({ restarted: 1 });
    expect(target.enqueued).toHaveLength(1);

    // A row the loader skips runs on no node: its orphan fails instead of waiting forever.
    await db.pool.query("TRUNCATE cyclium_episodes CASCADE");
    await db.pool.query(
      `UPDATE cyclium_agent_definitions SET expectations =
         '[{"id":"check_resource_limits","strategy":"s","trigger":{"manual":true},
            "recovery_policy":"restart"}]'`,
    );
    await seedStaleEpisodes({ count: 1, actorId: "dyn" }, db.pool);
    expect(await sweepOrphanedEpisodes(config())).toMatchObject({ restarted: 0, failed: 1 });

    await db.pool.query("TRUNCATE cyclium_episodes CASCADE");
    await seedStaleEpisodes({ count: 2, actorId: "dyn" }, db.pool);
    const second = await sweepOrphanedEpisodes(config(), { resolvePolicy: () => "fail" });
    expect(second).toMatchObject({ restarted: 0, failed: 2 });

    // A dynamic actor belongs to one env: another env's row of that name gives no policy, so the
    // unset env's orphan fails as an unknown actor's rather than restarting into no node.
    await db.pool.query("TRUNCATE cyclium_episodes CASCADE");
    await db.pool.query(
      `UPDATE cyclium_agent_definitions SET env = 'other', expectations =
         '[{"id":"check_resource_limits","strategy":"s","trigger":{"manual":true},
            "recoveryPolicy":"restart"}]'`,
    );
    await seedStaleEpisodes({ count: 1, actorId: "dyn" }, db.pool);
    expect(await sweepOrphanedEpisodes(config())).toMatchObject({ restarted: 0, failed: 1 });
  });

  it("without a queue behind the sweep, a restarted episode becomes a recovered trigger request", async () => {
    const [id] = await seedStaleEpisodes({ count: 1 }, db.pool);
    const result = await sweepOrphanedEpisodes(config({ registry: restartAll }));
    expect(result).toMatchObject({ restarted: 1 });
    const { rows } = await db.pool.query<{ status: string; opts: unknown; queued_by: null }>(
      `SELECT r.status, r.opts, e.queued_by FROM cyclium_trigger_requests r
         JOIN cyclium_episodes e ON e.id = r.episode_id WHERE r.episode_id = $1`,
      [id],
    );
    expect(rows).toEqual([{ status: "pending", opts: { recovered: true }, queued_by: null }]);
  });

  it("leaves episodes alone that journaled recently or are not running", async () => {
    const [fresh] = await seedStaleEpisodes({ count: 1, ageMs: 600_000 }, db.pool);
    await db.pool.query(
      "INSERT INTO cyclium_episode_steps (episode_id, attempt, step_no, outcome) VALUES ($1, 1, 1, 'continue')",
      [fresh],
    );
    await seedStaleEpisodes({ count: 1, ageMs: 1_000 }, db.pool);
    const [archived] = await seedStaleEpisodes({ count: 1 }, db.pool);
    await db.pool.query("UPDATE cyclium_episodes SET archived_at = now() WHERE id = $1", [
      archived,
    ]);

    const result = await sweepOrphanedEpisodes(config({ registry: restartAll }), {
      staleAfterMs: 60_000,
    });
    expect(result.found).toBe(0);
    await expect(sweepOrphanedEpisodes(config(), { limit: 0 })).rejects.toThrow(
      /Invalid sweep options/,
    );
  });

  it("skips an orphan whose claim is still leased, and steals a lapsed one", async () => {
    const claims = new PostgresWorkClaims({ db: db.pool });
    const [live, lapsed] = await seedStaleEpisodes({ count: 2, dedupePrefix: null }, db.pool);
    await claims.acquire({ dedupeKey: `episode:${live}`, owner: "alive", leaseSeconds: 60 });
    await claims.acquire({ dedupeKey: `episode:${lapsed}`, owner: "dead", leaseSeconds: 60 });
    await db.pool.query(
      "UPDATE cyclium_work_claims SET lease_until = now() - interval '1 second' WHERE dedupe_key = $1",
      [`episode:${lapsed}`],
    );

    const result = await sweepOrphanedEpisodes(
      config({ claims, registry: restartAll, target: recordingTarget() }),
    );

    expect(result).toMatchObject({ found: 2, claimed: 1, restarted: 1, skipped: 1 });
    expect(result.recovered.map((episode) => episode.id)).toEqual([lapsed]);
    // Released, so the restarted run on this or any node can acquire it at once.
    const { rows } = await db.pool.query<{ state: string; attempt: number }>(
      "SELECT state, attempt FROM cyclium_work_claims WHERE dedupe_key = $1",
      [`episode:${lapsed}`],
    );
    expect(rows[0]).toEqual({ state: "failed", attempt: 2 });
    const next = await claims.acquire({
      dedupeKey: `episode:${lapsed}`,
      owner: "sweeper-1",
      leaseSeconds: 60,
    });
    expect(next).toMatchObject({ ok: true, attempt: 3, stolen: false });
  });

  it("scopes by stack (equal or NULL) and strictly by env, with per-call overrides", async () => {
    const stackA = await seedStaleEpisodes({ count: 2, sourceStack: "a" }, db.pool);
    const stackB = await seedStaleEpisodes({ count: 2, sourceStack: "b" }, db.pool);
    const noStack = await seedStaleEpisodes({ count: 2, sourceStack: null }, db.pool);
    const rc = await seedStaleEpisodes({ count: 2, sourceStack: "b", sourceEnv: "rc" }, db.pool);
    const ids = (result: { recovered: { id: string }[] }) =>
      result.recovered.map((episode) => episode.id).sort();

    const fromB = await sweepOrphanedEpisodes(config({ scope: { stack: "b", env: null } }));
    expect(ids(fromB)).toEqual([...stackB, ...noStack].sort());
    expect((await episodes(stackA)).every((row) => row.status === "running")).toBe(true);
    expect((await episodes(rc)).every((row) => row.status === "running")).toBe(true);

    const rcSweep = await sweepOrphanedEpisodes(config({ scope: { stack: "b", env: "rc" } }));
    expect(ids(rcSweep)).toEqual([...rc].sort());
    expect((await episodes(stackA)).every((row) => row.status === "running")).toBe(true);

    const overridden = await sweepOrphanedEpisodes(config({ scope: { stack: "b", env: "rc" } }), {
      sourceStack: "a",
      sourceEnv: null,
    });
    expect(ids(overridden)).toEqual([...stackA].sort());
  });
});

describe("four nodes sweeping the same 1,000 orphans at once", () => {
  for (const gate of ["work claims", "recovery claim only"] as const) {
    it(`recovers each exactly once, no node more than half (${gate})`, async () => {
      const ids = await seedStaleEpisodes({ count: 1_000 }, db.pool);
      // Four separate pools: each node races on sessions of its own, as separate processes do.
      const pools = Array.from({ length: 4 }, () => {
        const pool = new pg.Pool({ connectionString: db.url, max: 4 });
        // The teardown's DROP DATABASE may meet a connection still closing: not a test failure.
        pool.on("error", () => undefined);
        return pool;
      });
      try {
        const results = await Promise.all(
          pools.map((pool, i) =>
            sweepOrphanedEpisodes({
              db: pool,
              node: `node-${i}`,
              scope: { stack: null, env: null },
              registry: restartAll,
              ...(gate === "work claims" ? { claims: new PostgresWorkClaims({ db: pool }) } : {}),
            }),
          ),
        );
        const claimed = results.map((result) => result.claimed);
        expect(claimed.reduce((a, b) => a + b, 0)).toBe(1_000);
        for (const count of claimed) expect(count).toBeLessThanOrEqual(500);
        const recoveredIds = results.flatMap((result) => result.recovered.map((e) => e.id));
        expect(new Set(recoveredIds).size).toBe(1_000);
        const rows = await episodes(ids);
        expect(rows.every((row) => row.status === "pending" && row.attempt === 2)).toBe(true);
        expect(rows.every((row) => row.recovery_history.length === 1)).toBe(true);
      } finally {
        await Promise.all(pools.map((pool) => pool.end()));
      }
    });
  }
});
