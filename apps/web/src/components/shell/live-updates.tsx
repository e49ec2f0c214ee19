"use client";

import { useQueryClient } from "@tanstack/react-query";
import { skipToken } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { isStaleAfter, readsForHint, trpcPathOfQueryKey } from "@/lib/live/live-invalidation";
import { setLiveStreaming } from "@/lib/live/live-stream-state";
import { useRefreshMode } from "@/lib/live/refresh-mode";
import { envInputFromParam } from "@/lib/url-state";
import type { TLiveHint } from "@/server/live/live-hint";
import { useTRPC } from "@/trpc/trpc-react-provider";

/**
 * Refetches at most once per window: the first hint after a quiet window is refetched at once,
 * later ones together when the window ends. A burst of 500 completions then costs each open list
 * a handful of refetches instead of 500 (and an invalidation cancels the refetch in flight, so
 * unthrottled a steady stream would starve it).
 */
const COALESCE_MS = 150;

/** Whether this tab is visible; a hidden tab neither polls (TanStack's default) nor streams. */
function usePageVisible(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      document.addEventListener("visibilitychange", onChange);
      return () => document.removeEventListener("visibilitychange", onChange);
    },
    () => document.visibilityState === "visible",
    () => true,
  );
}

const TERMINAL = new Set(["episode.completed", "episode.failed", "episode.cancelled"]);

/**
 * The tab's one live stream (mounted once, in the top bar): while the refresh mode is `live` it
 * subscribes to `live.events` for the env the page looks at and refetches the queries each hint
 * may have changed. In any other mode there is no stream; in `paused` focus and reconnect
 * refetches are off too, so the page sends nothing. The polite status region reads out a change
 * of the episode the page shows.
 */
export function LiveUpdates() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [mode] = useRefreshMode();
  // A background tab gives its connection back (a browser allows six per host over HTTP/1.1);
  // when it is shown again the stream reopens and its ready hint refetches what changed.
  const visible = usePageVisible();
  const streams = mode === "live" && visible;
  const pathname = usePathname();
  const params = useSearchParams();
  const env = envInputFromParam(params.get("env"));
  const [announcement, setAnnouncement] = useState("");
  const pending = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const readyOnce = useRef(false);
  const lastFlush = useRef(0);

  useEffect(() => {
    const paused = mode === "paused";
    const defaults = queryClient.getDefaultOptions();
    queryClient.setDefaultOptions({
      ...defaults,
      queries: { ...defaults.queries, refetchOnWindowFocus: !paused, refetchOnReconnect: !paused },
    });
  }, [mode, queryClient]);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      setLiveStreaming(false);
    },
    [],
  );

  const flush = () => {
    timer.current = undefined;
    lastFlush.current = Date.now();
    const reads = [...pending.current];
    pending.current.clear();
    void queryClient.invalidateQueries({
      predicate: (query) => isStaleAfter(trpcPathOfQueryKey(query.queryKey), reads),
    });
  };

  const onHint = (hint: TLiveHint) => {
    if (hint.topic === "live.ready" || hint.topic === "live.resync") {
      setLiveStreaming(hint.pushing === true);
      // The first ready of the tab follows the page's own fresh reads: nothing to catch up on.
      if (hint.topic === "live.ready" && !readyOnce.current) {
        readyOnce.current = true;
        return;
      }
    }
    for (const read of readsForHint(hint)) pending.current.add(read);
    // Hints of one bus event batch arrive in the same task: a zero delay still gathers them.
    const wait = Math.max(0, lastFlush.current + COALESCE_MS - Date.now());
    timer.current ??= setTimeout(flush, wait);
    if (TERMINAL.has(hint.topic) && hint.episodeId && pathname === `/episodes/${hint.episodeId}`) {
      setAnnouncement(`This episode is now ${hint.topic.slice("episode.".length)}.`);
    }
  };

  const subscription = useSubscription(
    trpc.live.events.subscriptionOptions(streams ? { env } : skipToken, {
      onData: onHint,
      onError: () => setLiveStreaming(false),
      onConnectionStateChange: (state) => {
        if (state.state !== "pending") setLiveStreaming(false);
      },
    }),
  );
  const status = streams ? subscription.status : "idle";
  useEffect(() => {
    if (status !== "pending") setLiveStreaming(false);
  }, [status]);

  return (
    <span role="status" aria-live="polite" className="visually-hidden" data-testid="live-announcer">
      {announcement}
    </span>
  );
}
