// Keyset paging for the console's lists: opaque cursors over (timestamp DESC, id DESC), the
// WHERE term that continues a walk, and the page a fetch of `limit + 1` rows makes.
export {
  cursorAtSql,
  decodeCursor,
  encodeCursor,
  keysetAfterSql,
  keysetPage,
  pageFromRows,
  ZKeysetCursorText,
  type KeysetPage,
  type TCursorIdKind,
  type TKeysetCursor,
  type TPageDirection,
  type TPageInfo,
} from "./keyset-cursor";
