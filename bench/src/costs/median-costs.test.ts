import { describe, expect, it } from "vitest";
import type { ItemCosts } from "./item-costs";
import { medianCosts } from "./median-costs";

const run = (statements: number, tables: ItemCosts["tables"]): ItemCosts => ({
  statements,
  statementsFrom: "pg_stat_statements",
  inserts: 1,
  updates: 2,
  hotUpdates: 0,
  deletes: 0,
  indexEntries: 3,
  indexEntriesFrom: "wal",
  walOutsideTables: 100,
  tables,
});

const table = (name: string, walBytes: number) => ({
  table: name,
  inserts: 1,
  updates: 1,
  hotUpdates: 0,
  deletes: 0,
  indexEntries: 2,
  walBytes,
  pageImageBytes: walBytes / 2,
});

describe("medianCosts", () => {
  it("takes each figure's median, a table absent from a repetition counting as 0 there", () => {
    const costs = medianCosts([
      run(4, [table("a", 300), table("b", 100)]),
      run(6, [table("a", 500)]),
      run(5, [table("a", 400), table("b", 200)]),
    ]);
    expect(costs?.statements).toBe(5);
    expect(costs?.tables.map((t) => [t.table, t.walBytes])).toEqual([
      ["a", 400],
      ["b", 100],
    ]);
  });

  it("is null for no repetition", () => {
    expect(medianCosts([])).toBeNull();
  });
});
