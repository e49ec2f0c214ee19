"use client";

import { DataTable } from "./data-table";
import { Pager, type TPageCursors } from "./pager";

/**
 * One keyset page of a list procedure's rows (`items`, newest first) in a DataTable, with the
 * Pager to the pages beside it (`page`) below. Rows are keyed by their id, as the cursors are.
 */
export function PagedTable<T extends { id: string }>({
  list,
  noun,
  ...table
}: Omit<Parameters<typeof DataTable<T>>[0], "data" | "rowId"> & {
  list: { items: T[]; page: TPageCursors };
  /** Singular and plural: ["entry", "entries"]. */
  noun: readonly [string, string];
}) {
  return (
    <>
      <DataTable {...table} data={list.items} rowId={(row) => row.id} />
      <Pager page={list.page} shown={list.items.length} noun={noun} />
    </>
  );
}
