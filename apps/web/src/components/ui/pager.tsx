"use client";

import { Icon } from "@/components/icons/icon";
import { useUrlState } from "@/lib/url-state";

export interface TPageCursors {
  olderCursor: string | null;
  newerCursor: string | null;
}

/**
 * Keyset paging (newest first): "Newer" and "Older" move by cursor, "Newest" returns to the live
 * head of the list, which is the only page that shows rows as they arrive.
 */
export function Pager({
  page,
  shown,
  noun,
}: {
  page: TPageCursors;
  shown: number;
  /** Singular and plural: ["entry", "entries"]. */
  noun: readonly [string, string];
}) {
  const { get, update } = useUrlState();
  const atHead = get("cursor") === undefined;
  return (
    <nav className="pager" aria-label={`${noun[1]} pages`}>
      <span className="pager-status">
        {shown === 0 ? `No ${noun[1]}` : `${shown} ${shown === 1 ? noun[0] : noun[1]}`}
        {atHead ? " · newest first, updating live" : " · an older page, not updating with new rows"}
      </span>
      <div className="pager-buttons">
        <button
          type="button"
          className="button button-small"
          disabled={atHead}
          onClick={() => update({ cursor: undefined, dir: undefined })}
        >
          Newest
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={page.newerCursor === null}
          onClick={() => update({ cursor: page.newerCursor ?? undefined, dir: "newer" })}
        >
          <Icon name="arrow-left" size={14} />
          Newer
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={page.olderCursor === null}
          onClick={() => update({ cursor: page.olderCursor ?? undefined, dir: "older" })}
          data-testid="pager-older"
        >
          Older
          <Icon name="arrow-right" size={14} />
        </button>
      </div>
    </nav>
  );
}

/** Rows on one page of every paged list. */
export const PAGE_SIZE = 50;

/** The page part of a list input: its size, and the cursor read from the URL. */
export function usePageInput(): {
  limit: number;
  cursor?: string;
  direction?: "older" | "newer";
} {
  const { get } = useUrlState();
  const cursor = get("cursor");
  if (cursor === undefined) return { limit: PAGE_SIZE };
  return { limit: PAGE_SIZE, cursor, direction: get("dir") === "newer" ? "newer" : "older" };
}
