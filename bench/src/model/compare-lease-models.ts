// The data-model decision of SPEC section 4 ("the episode's own lease"), measured on core's own
// statements (the results, and the prototype's that came first: docs/benchmarks.md, "The episode's
// own lease"): the statements one drained item costs today (request claimed, claim row inserted and
// done, episode started and ended, request completed) against the lighter model the section allows
// (the lease in the episode row, the request going from pending straight to completed in the
// statement that starts its episode). Both drain the same seeded items in batches of 24, as the SQL
// floor of the bench does, on fresh databases cloned from the migrated template.
//
// WAL bytes and row writes per item do not depend on how busy the machine is; PostgreSQL's CPU
// per item does, so the two models run interleaved, round after round, and are compared per round.
//
//   pnpm --filter @cyclium/bench exec tsx src/model/compare-lease-models.ts [items] [rounds]
import { claimKeyOf } from "../../../packages/core/src/claims/index";
import {
  endEpisodes,
  startEpisodes,
  type EpisodeEnd,
} from "../../../packages/core/src/episodes/index";
import { completedEnd } from "./completed-end";
import {
  claimTriggerRequests,
  startRequestedEpisodes,
} from "../../../packages/core/src/deferred/index";
import { createTestDatabase, prepareTestServer, type TestServer } from "@cyclium/db/testing";
import pg from "pg";
import { PostgresCpu } from "../pg/postgres-cpu";

const BATCH = 24;
const ACTOR = "bench";
const NODE = "model-bench";
const TABLES = [
  "cyclium_episodes",
  "cyclium_trigger_requests",
  "cyclium_work_claims",
  "cyclium_episode_steps",
] as const;

type Model = "claims table (today)" | "lease in episode row";

interface TableWrites {
  inserts: number;
  updates: number;
  hotUpdates: number;
  indexes: number;
}

interface Measured {
  model: Model;
  items: number;
  walBytes: number;
  pgCpuMs: number;
  wallMs: number;
  tables: Record<string, TableWrites>;
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

/** Today's statements, as the SQL floor consumer sends them (bench/src/systems/sql-floor). */
async function drainWithClaims(client: pg.Client): Promise<void> {
  for (;;) {
    const claimed = await claimTriggerRequests(
      {
        node: NODE,
        limits: [{ actorId: ACTOR, limit: BATCH }],
        sourceStack: null,
        sourceEnv: null,
      },
      client,
    );
    if (claimed.length === 0) return;
    const starts = await startEpisodes(
      {
        owner: NODE,
        leaseSeconds: 120,
        episodes: claimed.map((request) => ({
          episodeId: request.episode.id,
          claimKey: claimKeyOf(request.episode),
        })),
      },
      client,
    );
    const ends: EpisodeEnd[] = [];
    starts.forEach((start, index) => {
      const request = claimed[index];
      if (start.kind !== "started" || request === undefined) return;
      ends.push({
        ...completedEnd(start.episode.id, {
          dedupeKey: claimKeyOf(start.episode),
          owner: NODE,
          attempt: start.attempt,
        }),
        triggerRequestId: request.id,
      });
    });
    if (ends.length > 0) await endEpisodes({ node: NODE, ends }, client);
  }
}

// The lighter model, as core now sends it: the request is picked and completed, and its episode
// started under a lease held in its own row, in one statement (startRequestedEpisodes); the end is
// fenced on the row's owner and attempt and releases the lease (endEpisodes with an in-row fence).
async function drainInRow(client: pg.Client): Promise<void> {
  for (;;) {
    const started = await startRequestedEpisodes(
      {
        node: NODE,
        leaseSeconds: 120,
        limits: [{ actorId: ACTOR, limit: BATCH }],
        sourceStack: null,
        sourceEnv: null,
      },
      client,
    );
    if (started.length === 0) return;
    await endEpisodes(
      {
        node: NODE,
        ends: started.map(({ episode, fence }) => completedEnd(episode.id, fence)),
      },
      client,
    );
  }
}

async function tableWrites(client: pg.Client): Promise<Record<string, TableWrites>> {
  await client.query("SELECT pg_stat_force_next_flush()");
  const { rows } = await client.query<{
    relname: string;
    ins: string;
    upd: string;
    hot: string;
    indexes: string;
  }>(
    `SELECT t.relname, t.n_tup_ins AS ins, t.n_tup_upd AS upd, t.n_tup_hot_upd AS hot,
            (SELECT count(*) FROM pg_index i WHERE i.indrelid = t.relid) AS indexes
       FROM pg_stat_user_tables t WHERE t.relname = ANY($1::text[])`,
    [TABLES],
  );
  return Object.fromEntries(
    rows.map((row) => [
      row.relname,
      {
        inserts: Number(row.ins),
        updates: Number(row.upd),
        hotUpdates: Number(row.hot),
        indexes: Number(row.indexes),
      },
    ]),
  );
}

async function measure(server: TestServer, model: Model, items: number): Promise<Measured> {
  const db = await createTestDatabase(server);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query("SET stats_fetch_consistency = none");
    await seed(client, items);
    const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0];
    const cpu = await PostgresCpu.find(pid?.pid ?? null);
    const before = await tableWrites(client);
    const lsn = await client.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn() AS lsn");
    const cpuBefore = (await cpu?.read()) ?? new Map<number, number>();
    const started = performance.now();
    if (model === "claims table (today)") await drainWithClaims(client);
    else await drainInRow(client);
    const wallMs = performance.now() - started;
    const cpuAfter = (await cpu?.read()) ?? new Map<number, number>();
    const wal = await client.query<{ bytes: string }>(
      "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1) AS bytes",
      [lsn.rows[0]?.lsn],
    );
    const after = await tableWrites(client);
    const done = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM cyclium_episodes WHERE status = 'completed'",
    );
    if (Number(done.rows[0]?.n) !== items) {
      throw new Error(`${model}: ${done.rows[0]?.n} of ${items} episodes completed`);
    }
    const tables: Record<string, TableWrites> = {};
    for (const name of TABLES) {
      const a = after[name];
      const b = before[name];
      if (a === undefined || b === undefined) continue;
      tables[name] = {
        inserts: a.inserts - b.inserts,
        updates: a.updates - b.updates,
        hotUpdates: a.hotUpdates - b.hotUpdates,
        indexes: a.indexes,
      };
    }
    return {
      model,
      items,
      walBytes: Number(wal.rows[0]?.bytes),
      pgCpuMs: PostgresCpu.spent(cpuBefore, cpuAfter),
      wallMs,
      tables,
    };
  } finally {
    await client.end();
    await db.drop();
  }
}

function perItem(value: number, items: number, digits = 2): string {
  return (value / items).toFixed(digits);
}

function report(results: Measured[]): void {
  for (const result of results) {
    const { items } = result;
    let indexEntries = 0;
    const rows = Object.entries(result.tables).map(([name, writes]) => {
      // A non-HOT update writes an entry into every index, as an insert does (partial indexes
      // whose predicate the row misses are counted too: an upper bound).
      indexEntries += (writes.inserts + writes.updates - writes.hotUpdates) * writes.indexes;
      return `    ${name}: ${perItem(writes.inserts, items)} inserts, ${perItem(writes.updates, items)} updates (${perItem(writes.hotUpdates, items)} HOT), ${writes.indexes} indexes`;
    });
    console.log(
      `${result.model}: ${items} items, WAL ${perItem(result.walBytes, items, 0)} B/item, index entries <= ${perItem(indexEntries, items, 1)}/item, PostgreSQL CPU ${perItem(result.pgCpuMs, items, 3)} ms/item, ${Math.round((items * 1000) / result.wallMs)} items/s (one connection)`,
    );
    console.log(rows.join("\n"));
  }
}

const items = Number(process.argv[2] ?? 4_800);
const rounds = Number(process.argv[3] ?? 3);
// The test-only embedded server under .data/pg-test (fsync off: WAL bytes are the same, the
// time is PostgreSQL's without the disk).
const server = await prepareTestServer(undefined);
const all: Measured[] = [];
for (let round = 1; round <= rounds; round += 1) {
  const today = await measure(server, "claims table (today)", items);
  const inRow = await measure(server, "lease in episode row", items);
  console.log(
    `round ${round}: WAL ${(inRow.walBytes / today.walBytes).toFixed(2)}x, PostgreSQL CPU ${(inRow.pgCpuMs / today.pgCpuMs).toFixed(2)}x, items/s ${(today.wallMs / inRow.wallMs).toFixed(2)}x (lease in row / today)`,
  );
  all.push(today, inRow);
}
report(all);
if (server.embedded?.startedHere) await server.embedded.stop();
