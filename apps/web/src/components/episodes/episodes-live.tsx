"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { LiveIndicator } from "@/components/overview/live-indicator";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { ErrorCallout, LoadingRows, StaleCallout } from "@/components/ui/query-state";
import { getConsolePage } from "@/components/shell/console-pages";
import { useNow } from "@/lib/use-now";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { EpisodeMatchBar } from "./episode-bulk-actions";
import { EpisodeFilters } from "./episode-filters";
import { useEpisodeListInput } from "./episode-list-input";
import { EpisodeSearchBar } from "./episode-search-bar";
import { EpisodesTable } from "./episodes-table";
import { useLiveListOptions } from "@/lib/live/use-live-list-options";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

/** New episodes show up within this long on the first page. */
export const EPISODES_REFRESH_MS = 2_000;

const page = getConsolePage("episodes");

/**
 * The total of a search counts up to 10,000 rows (up to ~60 ms at 1M episodes): polled every 10 s
 * rather than refetched on every pushed episode event, which may come every 150 ms.
 */
const TOTAL_REFRESH_MS = 10_000;

export function EpisodesLive({ canOperate }: { canOperate: boolean }) {
  const trpc = useTRPC();
  const now = useNow(15_000);
  const input = useEpisodeListInput(now ?? 0);
  const params = useSearchParams();
  const list = useQuery({
    ...trpc.episodes.list.queryOptions(input),
    enabled: now !== null,
    ...useLiveListOptions(EPISODES_REFRESH_MS),
  });
  const totalRefetch = useRefetchInterval(TOTAL_REFRESH_MS, { pushed: false });
  const { cursor: _cursor, direction: _direction, limit: _limit, ...filter } = input;
  const filtered = [
    "actor",
    "expectation",
    "status",
    "trigger",
    "stack",
    "range",
    "archived",
    "exhausted",
    "q",
  ].some((key) => params.get(key) !== null);
  return (
    <>
      <PageHeader
        title={page.label}
        summary={page.summary}
        actions={
          <LiveIndicator
            state={list.isError ? "error" : list.isPending ? "loading" : "live"}
            refreshMs={EPISODES_REFRESH_MS}
          />
        }
      />
      <EpisodeSearchBar />
      <EpisodeFilters />
      {now !== null ? (
        <EpisodeMatchBar filter={filter} canOperate={canOperate} refetchInterval={totalRefetch} />
      ) : null}
      {list.isError && list.data ? <StaleCallout error={list.error} /> : null}
      {list.isPending ? (
        <LoadingRows label="Loading episodes" />
      ) : list.isError && !list.data ? (
        <ErrorCallout error={list.error} what="episodes" />
      ) : (
        <>
          <EpisodesTable items={list.data.items} envParam={params.get("env")} filtered={filtered} />
          <Pager
            page={list.data.page}
            shown={list.data.items.length}
            noun={["episode", "episodes"]}
          />
        </>
      )}
    </>
  );
}
