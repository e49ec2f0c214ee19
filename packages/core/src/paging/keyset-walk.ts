import type { SqlParams } from "../scope/index";
import {
  cursorAtSql,
  decodeCursor,
  pageFromRows,
  type TCursorIdKind,
  type TPageDirection,
  type TPageInfo,
} from "./keyset-cursor";

/** The paging part of a list's options: where to start, which way, how many. */
export interface KeysetPageOptions {
  /** A cursor of a previous page (opaque); omitted: the newest rows. */
  cursor?: string | undefined;
  direction?: TPageDirection | undefined;
  limit: number;
}

/** A page of a keyset list: its rows (newest first) and the cursors of its neighbours. */
export interface KeysetPage<T> {
  items: T[];
  page: TPageInfo;
}

/** The SQL pieces of one keyset page over a list ordered by (timestamp DESC, id DESC). */
export interface KeysetWalk {
  /** The WHERE term continuing from the cursor, or null on the first page. */
  after: string | null;
  /** The order of the timestamp and id columns for the direction of travel. */
  order: "ASC" | "DESC";
  /** The order of equality columns that lead an index (env, status): the opposite one. */
  leadOrder: "ASC" | "DESC";
  /** The select-list expression of a row's cursor timestamp; alias it `cursor_at`. */
  cursorAt: string;
  /** The LIMIT placeholder: one row more than the page, to see whether there is a next one. */
  limit: string;
  /** Trims the probe row and works out the neighbours' cursors. */
  page<T extends { id: string }>(fetched: { item: T; cursorAt: string }[]): KeysetPage<T>;
}

/**
 * Starts a keyset page: decodes the cursor and adds its bounds and the limit to `params`. Every
 * console list walks one index in order and stops after `limit + 1` rows, so page 1,000 costs
 * what page 1 does.
 */
export function keysetWalk(
  options: KeysetPageOptions,
  params: SqlParams,
  columns: { at: string; id: string; idType: TCursorIdKind },
): KeysetWalk {
  const direction = options.direction ?? "older";
  const cursor = options.cursor === undefined ? null : decodeCursor(options.cursor);
  let after: string | null = null;
  if (cursor !== null) {
    const at = `(${params.add(cursor.at)}::timestamp AT TIME ZONE 'UTC')`;
    const id = `${params.add(cursor.id)}::${columns.idType}`;
    after = `(${columns.at}, ${columns.id}) ${direction === "older" ? "<" : ">"} (${at}, ${id})`;
  }
  return {
    after,
    order: direction === "older" ? "DESC" : "ASC",
    leadOrder: direction === "older" ? "ASC" : "DESC",
    cursorAt: cursorAtSql(columns.at),
    limit: params.add(options.limit + 1),
    page(fetched) {
      const { rows, page } = pageFromRows(
        fetched.map(({ item, cursorAt }) => ({ id: item.id, cursorAt, item })),
        { limit: options.limit, direction, hasCursor: cursor !== null },
      );
      return { items: rows.map((row) => row.item), page };
    },
  };
}
