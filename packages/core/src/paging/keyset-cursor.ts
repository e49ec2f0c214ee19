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

/** The type of a list's `id` column, which the cursor's id is cast to in SQL. */
export type TCursorIdKind = "uuid" | "bigint";

const ID_OF_KIND: Record<TCursorIdKind, (id: string) => boolean> = {
  uuid: (id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id),
  // PostgreSQL's bigint: a cursor past its range made the cast fail, i.e. a 500 (issue 13).
  bigint: (id) => /^\d{1,19}$/.test(id) && BigInt(id) <= 9_223_372_036_854_775_807n,
};

/**
 * A timestamp of the right shape can still name no instant (`2026-02-30`, hour 25) or one that
 * PostgreSQL refuses (year 0): it must survive a round trip through Date unchanged.
 */
function isRealTimestamp(at: string): boolean {
  const millis = Date.parse(`${at.slice(0, 23)}Z`);
  if (Number.isNaN(millis)) return false;
  const year = Number(at.slice(0, 4));
  return year >= 1 && new Date(millis).toISOString().slice(0, 23) === at.slice(0, 23);
}

/**
 * A list's `cursor` input: refused with a 400 before any query unless it decodes to a real
 * timestamp and an id of the list's own type (a cursor of the right shape whose parts did not
 * convert answered 500 on all six lists).
 */
export function ZKeysetCursorText(kind: TCursorIdKind) {
  return z
    .string()
    .max(200)
    .refine(
      (text) => decodeCursor(text, kind) !== null,
      "cursor: not a list position produced by the console",
    );
}

/** Opaque in URLs (base64url), readable when decoded. */
export function encodeCursor(cursor: TKeysetCursor): string {
  return Buffer.from(`${cursor.at}_${cursor.id}`, "utf8").toString("base64url");
}

export function decodeCursor(text: string, kind?: TCursorIdKind): TKeysetCursor | null {
  const decoded = Buffer.from(text, "base64url").toString("utf8");
  const separator = decoded.indexOf("_");
  if (separator < 0) return null;
  const at = decoded.slice(0, separator);
  const id = decoded.slice(separator + 1);
  if (!AT.test(at) || !ID.test(id) || !isRealTimestamp(at)) return null;
  return kind === undefined || ID_OF_KIND[kind](id) ? { at, id } : null;
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
