// What a cluster-wide limit costs a drained item (SPEC section 16, packages/core/src/limits/), on
// core's own statements: the same seeded items drained through startRequestedEpisodes and
// endEpisodes in batches of 24 on one connection (zero-length work, so every millisecond is the
// statements'), three ways, interleaved round after round on fresh databases:
//
// - `no limit`: the actor declares none; its statement is the one the lease model measured.
// - `limit never full`: `global: 100000`: the gate's price alone (the pick read first, the rules,
//   the per-key lock, the counts, `limit_keys` set on each start).
// - `global limit 5`: at most 5 running; the pick takes at most 5 (claimCap), so a round trip
//   starts 5 and refuses none.
//
//   pnpm --filter @cyclium/bench exec tsx src/model/limit-gate-cost.ts [items] [rounds]
import { endEpisodes } from "../../../packages/core/src/episodes/index";
import { completedEnd } from "./completed-end";
import type { LimitRule } from "../../../packages/core/src/limits/index";
import { startRequestedEpisodes } from "../../../packages/core/src/deferred/index";
import { createTestDatabase, prepareTestServer, type TestServer } from "@cyclium/db/testing";
import pg from "pg";
import { PostgresCpu } from "../pg/postgres-cpu";

const BATCH = 24;
const ACTOR = "bench";
const NODE = "limit-bench";

const VARIANTS = {
  "no limit": undefined,
  "limit never full": 100_000,
  "global limit 5": 5,
} as const;
type Variant = keyof typeof VARIANTS;

interface Measured {
  variant: Variant;
  items: number;
  walBytes: number;
  pgCpuMs: number;
  wallMs: number;
  roundTrips: number;
}

async function seed(client: pg.Client, items: number): Promise<void> {
  await client.query(
    `WITH e AS (
       INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, input)
       SELECT $1, 'run', 'pending', 'manual', jsonb_build_object('item', g)
         FROM generate_series(1, $2) g
       RETURNING id)
     INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
     SELECT id, $1, 'run', 'pending' FROM e`,
    [ACTOR, items],
  );
  await client.query("VACUUM ANALYZE");
}

async function drain(client: pg.Client, limit: number | undefined): Promise<number> {
  const rules: LimitRule[] =
    limit === undefined ? [] : [{ k: `global:/${ACTOR}`, c: "concurrency", l: limit }];
  let roundTrips = 0;
  for (;;) {
    const started = await startRequestedEpisodes(
      {
        node: NODE,
        leaseSeconds: 120,
        limits: [{ actorId: ACTOR, limit: BATCH }],
        sourceStack: null,
        sourceEnv: null,
        limited:
          limit === undefined
            ? undefined
            : { actorIds: [ACTOR], rulesFor: () => rules, capFor: () => limit },
      },
      client,
    );
    roundTrips += limit === undefined ? 1 : 2;
    if (started.length === 0) return roundTrips;
    await endEpisodes(
      {
        node: NODE,
        ends: started.map(({ episode, fence }) => completedEnd(episode.id, fence)),
      },
      client,
    );
    roundTrips += 1;
  }
}

async function measure(server: TestServer, variant: Variant, items: number): Promise<Measured> {
  const db = await createTestDatabase(server);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await seed(client, items);
    const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0];
    const cpu = await PostgresCpu.find(pid?.pid ?? null);
    const lsn = await client.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn() AS lsn");
    const cpuBefore = (await cpu?.read()) ?? new Map<number, number>();
    const started = performance.now();
    const roundTrips = await drain(client, VARIANTS[variant]);
    const wallMs = performance.now() - started;
    const cpuAfter = (await cpu?.read()) ?? new Map<number, number>();
    const wal = await client.query<{ bytes: string }>(
      "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1) AS bytes",
      [lsn.rows[0]?.lsn],
    );
    const done = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM cyclium_episodes WHERE status = 'completed'",
    );
    if (Number(done.rows[0]?.n) !== items) {
      throw new Error(`${variant}: ${done.rows[0]?.n} of ${items} episodes completed`);
    }
    return {
      variant,
      items,
      walBytes: Number(wal.rows[0]?.bytes),
      pgCpuMs: PostgresCpu.spent(cpuBefore, cpuAfter),
      wallMs,
      roundTrips,
    };
  } finally {
    await client.end();
    await db.drop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const items = Number(process.argv[2] ?? 2_400);
const rounds = Number(process.argv[3] ?? 3);
// The test-only embedded server under .data/pg-test (fsync off: WAL bytes are the same, the
// time is PostgreSQL's without the disk).
const server = await prepareTestServer(undefined);
const all: Measured[] = [];
for (let round = 1; round <= rounds; round += 1) {
  for (const variant of Object.keys(VARIANTS) as Variant[]) {
    all.push(await measure(server, variant, items));
  }
}
console.log(
  `| per item (${items} items, ${rounds} rounds, medians) | items/s | wall ms | PostgreSQL CPU ms | WAL bytes | round trips |`,
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const variant of Object.keys(VARIANTS) as Variant[]) {
  const mine = all.filter((result) => result.variant === variant);
  const pick = (f: (m: Measured) => number) => median(mine.map(f));
  console.log(
    `| ${variant} | ${Math.round(pick((m) => (m.items * 1000) / m.wallMs)).toLocaleString("en")} | ${pick((m) => m.wallMs / m.items).toFixed(3)} | ${pick((m) => m.pgCpuMs / m.items).toFixed(3)} | ${Math.round(pick((m) => m.walBytes / m.items)).toLocaleString("en")} | ${pick((m) => m.roundTrips / m.items).toFixed(2)} |`,
  );
}
if (server.embedded?.startedHere) await server.embedded.stop();
