import { describe, expect, it } from "vitest";
import {
  addsIndexEntry,
  estimatedIndexEntries,
  ownersByFilenode,
  walByTable,
  writesBetween,
  type RelationRow,
} from "./relation-owner";

const rows: RelationRow[] = [
  { oid: 10, filenode: 110, name: "jobs", kind: "r", indexOf: null, toastOf: null },
  { oid: 11, filenode: 111, name: "jobs_pkey", kind: "i", indexOf: 10, toastOf: null },
  { oid: 12, filenode: 112, name: "pg_toast.pg_toast_10", kind: "t", indexOf: null, toastOf: 10 },
  {
    oid: 13,
    filenode: 113,
    name: "pg_toast.pg_toast_10_index",
    kind: "i",
    indexOf: 12,
    toastOf: null,
  },
  { oid: 20, filenode: 220, name: "steps", kind: "r", indexOf: null, toastOf: null },
];

describe("ownersByFilenode", () => {
  it("resolves indexes, TOAST tables and TOAST indexes to their table", () => {
    const owners = ownersByFilenode(rows);
    expect(owners.get(110)).toEqual({ table: "jobs", role: "table" });
    expect(owners.get(111)).toEqual({ table: "jobs", role: "index" });
    expect(owners.get(112)).toEqual({ table: "jobs", role: "toast" });
    expect(owners.get(113)).toEqual({ table: "jobs", role: "toast" });
    expect(owners.get(220)).toEqual({ table: "steps", role: "table" });
  });

  it("puts a system catalog's TOAST table and its index with the other relations", () => {
    const owners = ownersByFilenode([
      {
        oid: 7,
        filenode: 70,
        name: "pg_toast.pg_toast_2619",
        kind: "t",
        indexOf: null,
        toastOf: null,
      },
      {
        oid: 8,
        filenode: 80,
        name: "pg_toast.pg_toast_2619_index",
        kind: "i",
        indexOf: 7,
        toastOf: null,
      },
    ]);
    expect(owners.get(70)).toEqual({ table: "(other relations)", role: "toast" });
    expect(owners.get(80)).toEqual({ table: "(other relations)", role: "toast" });
  });

  it("keeps a relation whose owner is unknown under its own name", () => {
    const owners = ownersByFilenode([
      { oid: 5, filenode: 50, name: "orphan_idx", kind: "i", indexOf: 99, toastOf: null },
    ]);
    expect(owners.get(50)).toEqual({ table: "orphan_idx", role: "index" });
  });
});

describe("addsIndexEntry", () => {
  it("counts btree leaf inserts, posting-list inserts and splits, not upper inserts or deletes", () => {
    expect(addsIndexEntry("Btree", "INSERT_LEAF")).toBe(true);
    expect(addsIndexEntry("Btree", "INSERT_POST")).toBe(true);
    expect(addsIndexEntry("Btree", "SPLIT_R")).toBe(true);
    expect(addsIndexEntry("Btree", "INSERT_UPPER")).toBe(false);
    expect(addsIndexEntry("Btree", "DEDUP")).toBe(false);
    expect(addsIndexEntry("Btree", "DELETE")).toBe(false);
  });

  it("counts GIN inserts and pending-list appends, never heap records", () => {
    expect(addsIndexEntry("Gin", "INSERT")).toBe(true);
    expect(addsIndexEntry("Gin", "UPDATE_META_PAGE")).toBe(true);
    expect(addsIndexEntry("Heap", "INSERT")).toBe(false);
    expect(addsIndexEntry("Heap", "INSERT+INIT")).toBe(false);
    expect(addsIndexEntry("Hash", "INSERT")).toBe(true);
  });
});

describe("walByTable", () => {
  it("sums bytes by owning table and counts index entries only on index relations", () => {
    const owners = ownersByFilenode(rows);
    const tables = walByTable(
      [
        {
          filenode: 110,
          resourceManager: "Heap",
          recordType: "INSERT",
          records: 4,
          bytes: 400,
          pageImageBytes: 300,
        },
        {
          filenode: 111,
          resourceManager: "Btree",
          recordType: "INSERT_LEAF",
          records: 4,
          bytes: 256,
          pageImageBytes: 0,
        },
        {
          filenode: 113,
          resourceManager: "Btree",
          recordType: "INSERT_LEAF",
          records: 1,
          bytes: 64,
          pageImageBytes: 0,
        },
        {
          filenode: 220,
          resourceManager: "Heap",
          recordType: "INSERT",
          records: 2,
          bytes: 100,
          pageImageBytes: 0,
        },
        {
          filenode: 999,
          resourceManager: "Heap",
          recordType: "INPLACE",
          records: 1,
          bytes: 80,
          pageImageBytes: 0,
        },
      ],
      owners,
    );
    expect(tables).toEqual([
      { table: "jobs", walBytes: 720, indexWalBytes: 256, pageImageBytes: 300, indexEntries: 5 },
      { table: "steps", walBytes: 100, indexWalBytes: 0, pageImageBytes: 0, indexEntries: 0 },
      {
        table: "(other relations)",
        walBytes: 80,
        indexWalBytes: 0,
        pageImageBytes: 0,
        indexEntries: 0,
      },
    ]);
  });
});

describe("writesBetween and estimatedIndexEntries", () => {
  it("subtracts snapshots, drops untouched tables, and estimates entries from non-HOT writes", () => {
    const before = [
      { table: "jobs", inserts: 10, updates: 0, hotUpdates: 0, deletes: 0, indexes: 3 },
      { table: "idle", inserts: 5, updates: 0, hotUpdates: 0, deletes: 0, indexes: 1 },
    ];
    const after = [
      { table: "jobs", inserts: 20, updates: 6, hotUpdates: 2, deletes: 1, indexes: 3 },
      { table: "idle", inserts: 5, updates: 0, hotUpdates: 0, deletes: 0, indexes: 1 },
    ];
    const delta = writesBetween(before, after);
    expect(delta).toEqual([
      { table: "jobs", inserts: 10, updates: 6, hotUpdates: 2, deletes: 1, indexes: 3 },
    ]);
    expect(estimatedIndexEntries(delta[0]!)).toBe((10 + 6 - 2) * 3);
  });
});
