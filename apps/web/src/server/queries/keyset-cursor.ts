import { z } from "zod";

/**
 * A keyset position in a list ordered by (timestamp DESC, id DESC). The timestamp travels as the
 * database's own microsecond text: a JS Date keeps milliseconds only, and a cursor rounded to the
 * millisecond would skip or repeat rows inserted within the same millisecond.
 */
export interface TKeysetCursor {
  /** UTC, `YYYY-MM-DDTHH:MM:SS.ffffff`. */
  at: string;
  id: string;
}

const AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const ID = /^[A-Za-z0-9-]{1,64}$/;

export const ZKeysetCursorText = z
  .string()
  .max(200)
  .refine((text) => decodeCursor(text) !== null, "not a list position produced by the console");

/** Opaque in URLs (base64url), readable when decoded. */
export function encodeCursor(cursor: TKeysetCursor): string {
  return Buffer.from(`${cursor.at}_${cursor.id}`, "utf8").toString("base64url");
}

export function decodeCursor(text: string): TKeysetCursor | null {
  const decoded = Buffer.from(text, "base64url").toString("utf8");
  const separator = decoded.indexOf("_");
  if (separator < 0) return null;
  const at = decoded.slice(0, separator);
  const id = decoded.slice(separator + 1);
  return AT.test(at) && ID.test(id) ? { at, id } : null;
}

/** SQL for a row's cursor timestamp, matching `AT` above. */
export function cursorAtSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;
}

export type TPageDirection = "older" | "newer";

export interface TPageInfo {
  /** Cursor for the next (older) page, when there is one. */
  olderCursor: string | null;
  /** Cursor for the previous (newer) page, when the page did not start at the newest row. */
  newerCursor: string | null;
}

/**
 * Given `limit + 1` rows fetched in the direction of travel, trims the probe row and works out
 * which neighbours exist. Rows come back newest first whatever the direction.
 */
export function pageFromRows<T extends { cursorAt: string; id: string }>(
  fetched: T[],
  options: { limit: number; direction: TPageDirection; hasCursor: boolean },
): { rows: T[]; page: TPageInfo } {
  const more = fetched.length > options.limit;
  const kept = more ? fetched.slice(0, options.limit) : fetched;
  const rows = options.direction === "newer" ? kept.reverse() : kept;
  const first = rows[0];
  const last = rows[rows.length - 1];
  const hasOlder = options.direction === "older" ? more : options.hasCursor;
  const hasNewer = options.direction === "newer" ? more : options.hasCursor;
  return {
    rows,
    page: {
      olderCursor: hasOlder && last ? encodeCursor({ at: last.cursorAt, id: last.id }) : null,
      newerCursor: hasNewer && first ? encodeCursor({ at: first.cursorAt, id: first.id }) : null,
    },
  };
}
