import { median } from "../stats";
import type { ItemCosts, TableCost } from "./item-costs";

/**
 * The median of each figure over repetitions (each table's figures too, a table missing from a
 * repetition counting as 0 there). The sources are the first repetition's: they do not change
 * within a run.
 */
export function medianCosts(runs: readonly ItemCosts[]): ItemCosts | null {
  const first = runs[0];
  if (first === undefined) return null;
  const m = (pick: (c: ItemCosts) => number) => median(runs.map(pick));
  const names = [...new Set(runs.flatMap((run) => run.tables.map((t) => t.table)))];
  const tables = names.map((table): TableCost => {
    const rows = runs.map((run) => run.tables.find((t) => t.table === table));
    const tm = (pick: (t: TableCost) => number) => median(rows.map((row) => (row ? pick(row) : 0)));
    return {
      table,
      inserts: tm((t) => t.inserts),
      updates: tm((t) => t.updates),
      hotUpdates: tm((t) => t.hotUpdates),
      deletes: tm((t) => t.deletes),
      indexEntries: tm((t) => t.indexEntries),
      walBytes: medianOrNull(rows.map((row) => row?.walBytes ?? null)),
      pageImageBytes: medianOrNull(rows.map((row) => row?.pageImageBytes ?? null)),
    };
  });
  return {
    statements: m((c) => c.statements),
    statementsFrom: first.statementsFrom,
    // The first repetition's: a list, not a figure to take the median of.
    ...(first.topStatements === undefined ? {} : { topStatements: first.topStatements }),
    inserts: m((c) => c.inserts),
    updates: m((c) => c.updates),
    hotUpdates: m((c) => c.hotUpdates),
    deletes: m((c) => c.deletes),
    indexEntries: m((c) => c.indexEntries),
    indexEntriesFrom: first.indexEntriesFrom,
    walOutsideTables: medianOrNull(runs.map((run) => run.walOutsideTables)),
    tables: tables.sort((a, b) => (b.walBytes ?? 0) - (a.walBytes ?? 0)),
    readMs: m((c) => c.readMs ?? Number.NaN),
  };
}

/** Null when every repetition had none (no pg_walinspect), else the median, a missing one as 0. */
function medianOrNull(values: readonly (number | null)[]): number | null {
  return values.every((v) => v === null) ? null : median(values.map((v) => v ?? 0));
}
