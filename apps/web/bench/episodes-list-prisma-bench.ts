/**
 * Issue 12's Prisma question, measured: the console's episode list at 1,000,000 episodes through
 * core's SQL (`listEpisodes`) and through Prisma Client (`episode.findMany` with the same filter,
 * order, page size and summary columns), side by side, p50/p95 of the first page and of a page
 * 20 pages deep (keyset cursor). Not a test: nothing is asserted.
 *
 *   pnpm --filter @cyclium/web bench:episodes:prisma      (BENCH_EPISODES, BENCH_RUNS)
 */
import { performance } from "node:perf_hooks";
import {
  createPrismaClient,
  createTestDatabase,
  prepareTestServer,
  type PrismaClient,
} from "@cyclium/db/testing";
import type pg from "pg";
import { listEpisodes, type EpisodeListFilters } from "@cyclium/core/console";
import { readBenchEnv } from "./env";
import { seedEpisodes } from "./seed-episodes";

const PAGE_SIZE = 50;
const DEEP_PAGES = 20;

const SUMMARY_SELECT = {
  id: true,
  actorId: true,
  expectationId: true,
  status: true,
  phase: true,
  triggerType: true,
  errorClass: true,
  attempt: true,
  turnsUsed: true,
  tokensUsed: true,
  sourceNode: true,
  sourceStack: true,
  sourceEnv: true,
  executedBy: true,
  insertedAt: true,
  startedAt: true,
  finishedAt: true,
  archivedAt: true,
} as const;

interface Case {
  name: string;
  filters: EpisodeListFilters & { env: null };
}

const CASES: readonly Case[] = [
  { name: "no filter (default env)", filters: { env: null } },
  { name: "status=failed", filters: { env: null, status: "failed" } },
  { name: "actor", filters: { env: null, actorId: "actor_07" } },
];

/** Core's cursor is opaque text (microsecond timestamps); Prisma's a JS Date (milliseconds). */
type Cursor = string | { insertedAt: Date; id: string };

type Page = { next: Cursor | undefined };
type Lister = (filters: Case["filters"], cursor: Cursor | undefined) => Promise<Page>;

function viaCore(pool: pg.Pool): Lister {
  return async (filters, cursor) => {
    const result = await listEpisodes({
      db: pool,
      filters,
      cursor: typeof cursor === "string" ? cursor : undefined,
      limit: PAGE_SIZE,
    });
    return { next: result.page.olderCursor ?? undefined };
  };
}

function viaPrisma(prisma: PrismaClient, leadWithEnv: boolean): Lister {
  return async (filters, cursor) => {
    const items = await prisma.episode.findMany({
      select: SUMMARY_SELECT,
      where: {
        sourceEnv: null,
        archivedAt: null,
        ...(filters.status ? { status: filters.status } : {}),
        ...(filters.actorId ? { actorId: filters.actorId } : {}),
        ...(cursor !== undefined && typeof cursor !== "string"
          ? {
              OR: [
                { insertedAt: { lt: cursor.insertedAt } },
                { insertedAt: cursor.insertedAt, id: { lt: cursor.id } },
              ],
            }
          : {}),
      },
      orderBy: [
        ...(leadWithEnv ? [{ sourceEnv: "asc" as const }] : []),
        { insertedAt: "desc" },
        { id: "desc" },
      ],
      take: PAGE_SIZE + 1,
    });
    const last = items.at(PAGE_SIZE - 1);
    return { next: last ? { insertedAt: last.insertedAt, id: last.id } : undefined };
  };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

async function time(list: Lister, c: Case, deep: boolean, runs: number) {
  let cursor: Cursor | undefined;
  if (deep) {
    for (let page = 0; page < DEEP_PAGES; page += 1) {
      cursor = (await list(c.filters, cursor)).next;
    }
  }
  const timings: number[] = [];
  for (let run = -2; run < runs; run += 1) {
    const started = performance.now();
    await list(c.filters, cursor);
    if (run >= 0) timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  return `${percentile(timings, 50).toFixed(2)} / ${percentile(timings, 95).toFixed(2)}`;
}

async function main(): Promise<void> {
  const env = readBenchEnv();
  const server = await prepareTestServer(env.DATABASE_URL);
  const database = await createTestDatabase({
    prefix: "cyclium_bench",
    serverUrl: server.serverUrl,
    templateDatabase: server.templateDatabase,
    poolSize: 2,
  });
  const prisma = createPrismaClient(database.url);
  try {
    await seedEpisodes(database.pool, env.BENCH_EPISODES);
    console.log(`seeded ${env.BENCH_EPISODES.toLocaleString("en-US")} episodes`);
    const listers: [string, Lister][] = [
      ["core SQL", viaCore(database.pool)],
      ["Prisma findMany", viaPrisma(prisma, false)],
      ["Prisma, env-led order", viaPrisma(prisma, true)],
    ];
    console.log(`\np50 / p95 ms, page of ${PAGE_SIZE}, ${env.BENCH_RUNS} runs each\n`);
    console.log(["case", "page", ...listers.map(([name]) => name)].join(" | "));
    for (const c of CASES) {
      for (const deep of [false, true]) {
        const cells: string[] = [];
        for (const [, list] of listers) cells.push(await time(list, c, deep, env.BENCH_RUNS));
        console.log([c.name, deep ? `page ${DEEP_PAGES + 1}` : "first", ...cells].join(" | "));
      }
    }
  } finally {
    await prisma.$disconnect();
    await database.drop();
    if (server.embedded?.startedHere) await server.embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
