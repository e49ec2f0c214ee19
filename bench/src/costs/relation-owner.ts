/**
 * Pure bookkeeping of the per-item cost figures: which table a relation (heap, index, TOAST table,
 * TOAST index) belongs to, whether a WAL record adds an index entry, and the sums by table.
 */

/** One row of the drain database's catalog (pg_class), keyed by its file node. */
export interface RelationRow {
  oid: number;
  filenode: number;
  /** schema-qualified name as regclass prints it. */
  name: string;
  /** pg_class.relkind: r table, p partitioned, i/I index, t TOAST, m matview. */
  kind: string;
  /** The table an index indexes (pg_index.indrelid). */
  indexOf: number | null;
  /** The table whose TOAST table this is (pg_class.reltoastrelid points here). */
  toastOf: number | null;
}

/** Where WAL of relations that belong to no user table is summed. */
export const OTHER_RELATIONS = "(other relations)";

export type RelationRole = "table" | "index" | "toast";

export interface RelationOwner {
  /** The user table it all belongs to. */
  table: string;
  role: RelationRole;
}

/**
 * Resolves every relation to the table it belongs to: an index to its table, a TOAST table to its
 * table, a TOAST table's index to the TOAST table's table. Keyed by file node (what WAL records
 * name). Relations whose owner is not in `rows` keep their own name.
 */
export function ownersByFilenode(rows: readonly RelationRow[]): Map<number, RelationOwner> {
  const byOid = new Map(rows.map((row) => [row.oid, row]));
  const rootOf = (row: RelationRow): RelationRow => {
    let current = row;
    // Two hops at most (TOAST index → TOAST table → table); the bound guards a malformed catalog.
    for (let hop = 0; hop < 3; hop += 1) {
      const parent = current.indexOf ?? current.toastOf;
      const next = parent === null ? undefined : byOid.get(parent);
      if (next === undefined) return current;
      current = next;
    }
    return current;
  };
  const result = new Map<number, RelationOwner>();
  for (const row of rows) {
    const role: RelationRole =
      row.kind === "i" || row.kind === "I"
        ? byOid.get(row.indexOf ?? -1)?.kind === "t"
          ? "toast"
          : "index"
        : row.kind === "t"
          ? "toast"
          : "table";
    const root = rootOf(row);
    // A TOAST table whose table is not listed belongs to a system catalog (pg_statistic's).
    const table = root.kind === "t" ? OTHER_RELATIONS : root.name;
    result.set(row.filenode, { table, role });
  }
  return result;
}

/**
 * Does a WAL record (resource manager, record type as pg_walinspect names them) add one index
 * entry? Btree: a leaf insert, an insert that splits a posting list, or a page split (its record
 * carries the new entry; upper-level splits are rare and counted too). GIN: an insert, or an
 * append to the pending list (fastupdate). Hash, GiST, SP-GiST, BRIN: their insert records.
 */
export function addsIndexEntry(resourceManager: string, recordType: string): boolean {
  const type = recordType.replace(/\+INIT$/, "");
  switch (resourceManager) {
    case "Btree":
      return ["INSERT_LEAF", "INSERT_POST", "SPLIT_L", "SPLIT_R"].includes(type);
    case "Gin":
      return type === "INSERT" || type === "UPDATE_META_PAGE";
    case "Hash":
    case "Gist":
    case "SPGist":
      return type === "INSERT" || type === "ADD_LEAF";
    case "BRIN":
      return type === "INSERT";
    default:
      return false;
  }
}

/** WAL records of one relation, one resource manager and one record type (summed). */
export interface WalGroup {
  filenode: number;
  resourceManager: string;
  recordType: string;
  records: number;
  bytes: number;
  /** Of which full-page images (a page's first change after a checkpoint). */
  pageImageBytes: number;
}

export interface TableWal {
  table: string;
  /** Bytes of every record whose first block is in the table, its indexes or its TOAST. */
  walBytes: number;
  /** Of which in its indexes. */
  indexWalBytes: number;
  /** Of which full-page images. */
  pageImageBytes: number;
  indexEntries: number;
}

/**
 * Sums WAL records by owning table. Records on relations not in `owners` (catalogs, relations
 * dropped meanwhile) go to `(other relations)`.
 */
export function walByTable(
  groups: readonly WalGroup[],
  owners: ReadonlyMap<number, RelationOwner>,
): TableWal[] {
  const tables = new Map<string, TableWal>();
  for (const group of groups) {
    const owner = owners.get(group.filenode);
    const name = owner?.table ?? OTHER_RELATIONS;
    const entry = tables.get(name) ?? {
      table: name,
      walBytes: 0,
      indexWalBytes: 0,
      pageImageBytes: 0,
      indexEntries: 0,
    };
    entry.walBytes += group.bytes;
    entry.pageImageBytes += group.pageImageBytes;
    if (owner?.role === "index") entry.indexWalBytes += group.bytes;
    if (owner?.role !== "table" && addsIndexEntry(group.resourceManager, group.recordType)) {
      entry.indexEntries += group.records;
    }
    tables.set(name, entry);
  }
  return [...tables.values()].sort((a, b) => b.walBytes - a.walBytes);
}

/** pg_stat_user_tables counters of one table (a snapshot, or a delta of two). */
export interface TableWrites {
  table: string;
  inserts: number;
  updates: number;
  hotUpdates: number;
  deletes: number;
  /** Indexes on the table (for the estimate of index entries without WAL inspection). */
  indexes: number;
}

/** after − before, per table; tables with no write in between are left out. */
export function writesBetween(
  before: readonly TableWrites[],
  after: readonly TableWrites[],
): TableWrites[] {
  const earlier = new Map(before.map((row) => [row.table, row]));
  return after
    .map((row) => {
      const b = earlier.get(row.table);
      return {
        table: row.table,
        inserts: row.inserts - (b?.inserts ?? 0),
        updates: row.updates - (b?.updates ?? 0),
        hotUpdates: row.hotUpdates - (b?.hotUpdates ?? 0),
        deletes: row.deletes - (b?.deletes ?? 0),
        indexes: row.indexes,
      };
    })
    .filter((row) => row.inserts + row.updates + row.deletes > 0);
}

/**
 * Index entries a table's writes add when WAL cannot be inspected: every insert and every update
 * that is not HOT adds one entry to each index. An upper bound: a partial index skips rows
 * outside its predicate, and PostgreSQL 18 may skip unchanged entries of a non-HOT update.
 */
export function estimatedIndexEntries(writes: TableWrites): number {
  return (writes.inserts + writes.updates - writes.hotUpdates) * writes.indexes;
}
