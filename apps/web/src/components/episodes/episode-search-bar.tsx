"use client";

import { useEffect, useId, useRef, useState } from "react";
import { parseEpisodeSearch, SEARCH_QUALIFIERS } from "@/lib/episode-search/parse-episode-search";
import { useUrlState } from "@/lib/url-state";

/**
 * The episode list's search (docs/console-search.md): typed qualifiers, applied on Enter and kept
 * in the URL as `?q=` (URL-encoded by URLSearchParams), so a search can be shared and survives a
 * reload. The browser parses it with the server's parser first, so a typo is answered in place
 * with the same message instead of a failed request. `/` focuses it (data-search).
 */
export function EpisodeSearchBar() {
  const { get, update } = useUrlState();
  const urlQuery = get("q") ?? "";
  const [text, setText] = useState(urlQuery);
  const [error, setError] = useState<string | null>(null);
  const hintId = useId();
  const errorId = useId();
  // Back/forward or a link changes the URL: the box follows it. Only a change: on mount the box
  // already holds the URL's query, and what was typed in the meantime is kept.
  const shownQuery = useRef(urlQuery);
  useEffect(() => {
    if (shownQuery.current === urlQuery) return;
    shownQuery.current = urlQuery;
    setText(urlQuery);
    setError(null);
  }, [urlQuery]);

  const apply = (query: string) => {
    const trimmed = query.trim();
    const parsed = parseEpisodeSearch(trimmed);
    if (parsed.kind === "invalid") {
      setError(parsed.message);
      return;
    }
    setError(null);
    update({ q: trimmed === "" ? undefined : trimmed });
  };

  return (
    <form
      className="search-bar"
      role="search"
      aria-label="Search episodes"
      onSubmit={(event) => {
        event.preventDefault();
        apply(text);
      }}
    >
      <label className="search-bar-field">
        <span className="search-bar-label">Search</span>
        <input
          type="search"
          name="q"
          className="input search-bar-input"
          data-search
          data-testid="episode-search"
          value={text}
          placeholder="status:failed actor:billing input.order:A-1042"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          aria-invalid={error !== null}
          aria-describedby={error !== null ? `${errorId} ${hintId}` : hintId}
          onChange={(event) => {
            setText(event.target.value);
            if (error !== null) setError(null);
          }}
          onKeyDown={(event) => {
            if (event.key === "Escape" && text !== "") {
              event.preventDefault();
              setText("");
              apply("");
            }
          }}
        />
      </label>
      <button type="submit" className="button button-small button-primary">
        Search
      </button>
      {urlQuery !== "" ? (
        <button
          type="button"
          className="button button-small button-ghost"
          onClick={() => {
            setText("");
            apply("");
          }}
        >
          Clear search
        </button>
      ) : null}
      <p className="search-bar-error" id={errorId} role="alert" data-testid="episode-search-error">
        {error}
      </p>
      <details className="search-bar-help">
        <summary>Search syntax</summary>
        <p id={hintId}>
          Qualifiers: {SEARCH_QUALIFIERS.map((q) => `${q}:`).join(" ")}. Terms combine with AND;
          quote values with spaces (<code>key:&quot;a b&quot;</code>). A word without a qualifier is
          an id prefix when it is hex (4+ digits), else an exact dedupe key.{" "}
          <code>env:default</code> is the unset env. Enter searches, Escape clears.
        </p>
      </details>
    </form>
  );
}
