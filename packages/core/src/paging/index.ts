// Keyset paging for the console's lists: opaque cursors over (timestamp DESC, id DESC), and the
// SQL pieces and page of one walk.
export {
  cursorAtSql,
  decodeCursor,
  encodeCursor,
  pageFromRows,
  ZKeysetCursorText,
  type TCursorIdKind,
  type TKeysetCursor,
  type TPageDirection,
  type TPageInfo,
} from "./keyset-cursor";
export {
  keysetWalk,
  type KeysetPage,
  type KeysetPageOptions,
  type KeysetWalk,
} from "./keyset-walk";
