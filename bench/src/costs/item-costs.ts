import { appendFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import type { Counters } from "../pg/server";
import type { BenchContext } from "../scenarios/context";
import {
  relations,
  statementCalls,
  tableWrites,
  walGroups,
  type StatementCounts,
} from "./cost-probes";
import {
  estimatedIndexEntries,
  ownersByFilenode,
  walByTable,
  writesBetween,
  type RelationRow,
  type TableWrites,
  type WalGroup,
} from "./relation-owner";

/** What one drained item cost in one table (its indexes and TOAST included), per item. */
export interface TableCost {
  table: string;
  inserts: number;
  updates: number;
  hotUpdates: number;
  deletes: number;
  /** From WAL records, or estimated (see ItemCosts.indexEntriesFrom). */
  indexEntries: number;
  /** Null without pg_walinspect. */
  walBytes: number | null;
  /** Of walBytes, full-page images; null without pg_walinspect. */
  pageImageBytes: number | null;
}

/** The cost of one drained item, every figure divided by the items completed. */
export interface ItemCosts {
  /** Statements the server ran (pg_stat_statements, transaction control left out), else round trips. */
  statements: number;
  statementsFrom: "pg_stat_statements" | "round trips";
  /**
   * The statements that took the most server time (pg_stat_statements only), their text
   * shortened: calls and server ms (planning and execution) per item.
   */
  topStatements?: { query: string; perItem: number; serverMsPerItem: number }[];
  inserts: number;
  updates: number;
  hotUpdates: number;
  deletes: number;
  indexEntries: number;
  indexEntriesFrom: "wal" | "estimate";
  /** WAL of records on no relation of the database (commits, other databases, checkpoints). */
  walOutsideTables: number | null;
  tables: TableCost[];
  /** How long reading the WAL and the catalog took after the drain, ms (not per item). */
  readMs?: number;
}

/** Counters read before and after the timed window (never during it). */
export interface CostSnapshot {
  tables: TableWrites[];
  statements: StatementCounts | null;
}

/**
 * Reads the database's table counters and statement count. Called before the window opens
 * (tables first: its own query then falls before the statements count) and after it closes
 * (statements first, for the same reason), so the reads count in neither.
 */
export async function costSnapshot(
  context: BenchContext,
  database: { name: string; url: string },
  moment: "before" | "after",
): Promise<CostSnapshot> {
  const statements = async () =>
    context.probes?.statements === true
      ? context.server.withAdmin((admin) => statementCalls(admin, database.name))
      : null;
  if (moment === "before") {
    const tables = await tableWrites(database.url);
    return { tables, statements: await statements() };
  }
  const count = await statements();
  return { tables: await tableWrites(database.url), statements: count };
}

export interface CostWindow {
  database: { name: string; url: string };
  before: CostSnapshot;
  after: CostSnapshot;
  countersBefore: Counters;
  countersAfter: Counters;
  completed: number;
  /** The bench's own statements in the window (the drain monitor's polls). */
  ownStatements: number;
  /** Queries the workers sent (the fallback for statements). */
  roundTrips: number;
}

/** The per-item costs of a finished window; reads the WAL in between when pg_walinspect is on. */
export async function itemCosts(context: BenchContext, w: CostWindow): Promise<ItemCosts> {
  const per = (value: number) => value / Math.max(1, w.completed);
  const started = performance.now();
  const writes = writesBetween(w.before.tables, w.after.tables);
  const wal =
    context.probes?.walInspect === true
      ? await readWal(context, w).catch((error: unknown) => {
          context.probes?.notes.push(`WAL not read: ${(error as Error).message}`);
          return null;
        })
      : null;
  const names = [...new Set([...writes.map((t) => t.table), ...(wal ?? []).map((t) => t.table)])];
  const tables = names
    .map((table): TableCost => {
      const write = writes.find((t) => t.table === table);
      const walOf = wal?.find((t) => t.table === table);
      return {
        table,
        inserts: per(write?.inserts ?? 0),
        updates: per(write?.updates ?? 0),
        hotUpdates: per(write?.hotUpdates ?? 0),
        deletes: per(write?.deletes ?? 0),
        indexEntries: per(
          wal === null ? (write ? estimatedIndexEntries(write) : 0) : (walOf?.indexEntries ?? 0),
        ),
        walBytes: wal === null ? null : per(walOf?.walBytes ?? 0),
        pageImageBytes: wal === null ? null : per(walOf?.pageImageBytes ?? 0),
      };
    })
    // A row per item that rounds to nothing (a node heartbeat over the whole drain) is noise.
    .filter((t) => (t.walBytes ?? 0) >= 1 || t.inserts + t.updates + t.deletes >= 0.005)
    .sort((a, b) => (b.walBytes ?? b.inserts + b.updates) - (a.walBytes ?? a.inserts + a.updates));
  const sum = (pick: (t: TableCost) => number) => tables.reduce((s, t) => s + pick(t), 0);
  const totalWal = w.countersAfter.walBytes - w.countersBefore.walBytes;
  const calls =
    w.before.statements !== null && w.after.statements !== null
      ? statementsBetween(w.before.statements, w.after.statements)
      : null;
  const statements =
    calls === null ? null : calls.reduce((s, c) => s + c.calls, 0) - w.ownStatements;
  return {
    statements: per(statements ?? w.roundTrips),
    statementsFrom: statements === null ? "round trips" : "pg_stat_statements",
    ...(calls === null
      ? {}
      : {
          topStatements: calls.slice(0, TOP_STATEMENTS).map((c) => ({
            query: shorten(c.query),
            perItem: per(c.calls),
            serverMsPerItem: per(c.serverMs),
          })),
        }),
    inserts: sum((t) => t.inserts),
    updates: sum((t) => t.updates),
    hotUpdates: sum((t) => t.hotUpdates),
    deletes: sum((t) => t.deletes),
    indexEntries: sum((t) => t.indexEntries),
    indexEntriesFrom: wal === null ? "estimate" : "wal",
    walOutsideTables: wal === null ? null : per(totalWal) - sum((t) => t.walBytes ?? 0),
    tables,
    readMs: performance.now() - started,
  };
}

async function readWal(context: BenchContext, w: CostWindow) {
  const rows = await relations(w.database.url);
  const owners = ownersByFilenode(rows);
  const groups = await context.server.withAdmin((admin) =>
    walGroups(admin, w.database.name, w.countersBefore.lsn, w.countersAfter.lsn),
  );
  const recordsFile = context.probes?.walRecordsFile;
  if (recordsFile !== undefined) {
    await appendFile(recordsFile, `${JSON.stringify(walRecords(groups, rows, w))}\n`);
  }
  return walByTable(groups, owners);
}

/**
 * `BENCH_WAL_RECORDS=<file>`: a JSON line per measured drain with its WAL per item by relation
 * (an index by its own name) and record type, page images apart. How the WAL per item was taken
 * apart (docs/benchmarks.md): which record, of which index, costs what.
 */
function walRecords(groups: readonly WalGroup[], rows: readonly RelationRow[], w: CostWindow) {
  const names = new Map(rows.map((row) => [row.filenode, row.name]));
  const per = (value: number) => Math.round((value / Math.max(1, w.completed)) * 10) / 10;
  return {
    database: w.database.name,
    items: w.completed,
    records: groups
      .map((group) => ({
        relation: names.get(group.filenode) ?? String(group.filenode),
        type: `${group.resourceManager}/${group.recordType}`,
        perItem: per(group.records),
        bytes: per(group.bytes - group.pageImageBytes),
        pageImageBytes: per(group.pageImageBytes),
      }))
      .filter((record) => record.bytes + record.pageImageBytes >= 0.5)
      .sort((a, b) => b.bytes + b.pageImageBytes - (a.bytes + a.pageImageBytes)),
  };
}

const TOP_STATEMENTS = 8;

/** Calls and server time per statement between two snapshots, the most time first. */
function statementsBetween(before: StatementCounts, after: StatementCounts) {
  return [...after]
    .map(([id, { query, calls, serverMs }]) => ({
      query,
      calls: calls - (before.get(id)?.calls ?? 0),
      serverMs: serverMs - (before.get(id)?.serverMs ?? 0),
    }))
    .filter((c) => c.calls > 0)
    .sort((a, b) => b.serverMs - a.serverMs);
}

/** One line of at most 90 characters: the statement's start, which names it. */
function shorten(query: string): string {
  const line = query.replace(/\s+/g, " ").trim();
  return line.length > 90 ? `${line.slice(0, 89)}…` : line;
}
