"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEnvInput } from "@/lib/url-state";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { formatCount } from "@/lib/format-count";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { getConsolePage } from "@/components/shell/console-pages";
import { EpisodeStatusCards } from "./episode-status-cards";
import { LiveIndicator } from "./live-indicator";
import { LiveNodesTable } from "./live-nodes-table";
import { OverviewExtras } from "./overview-extras";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

/** Polling cadence of the Overview: fast enough to watch an episode finish, cheap for the DB. */
export const OVERVIEW_REFRESH_MS = 2_000;

const overviewPage = getConsolePage("overview");

export function OverviewLive() {
  const trpc = useTRPC();
  const env = useEnvInput();
  const stats = useQuery({
    // No input for the console's own env: the same query key the server prefetched.
    ...trpc.overview.stats.queryOptions(env === undefined ? undefined : { env }),
    refetchInterval: useRefetchInterval(OVERVIEW_REFRESH_MS),
  });

  const header = (
    <PageHeader
      title={overviewPage.label}
      summary={overviewPage.summary}
      actions={
        <LiveIndicator
          state={stats.isError ? "error" : stats.isPending ? "loading" : "live"}
          refreshMs={OVERVIEW_REFRESH_MS}
        />
      }
    />
  );

  if (stats.isPending) {
    return (
      <>
        {header}
        <div className="panel panel-loading" aria-busy="true">
          Loading cluster state…
        </div>
      </>
    );
  }

  if (stats.isError && !stats.data) {
    return (
      <>
        {header}
        <div className="callout callout-error" role="alert">
          The console could not read the database. It keeps retrying every{" "}
          {OVERVIEW_REFRESH_MS / 1000} s.
        </div>
      </>
    );
  }

  const { episodes, nodes, liveWindowSeconds } = stats.data;
  const envLabel = stats.data.env ?? "default";

  return (
    <>
      {header}
      {stats.isError ? (
        <div className="callout callout-warning" role="status">
          Lost contact with the database; showing the last numbers read. Retrying every{" "}
          {OVERVIEW_REFRESH_MS / 1000} s.
        </div>
      ) : null}

      <section className="section" aria-labelledby="episodes-heading">
        <div className="section-header">
          <h2 id="episodes-heading" className="section-title">
            Episodes
          </h2>
          <span className="section-meta" data-testid="episode-count-total">
            {formatCount(episodes.total)} total in env <strong>{envLabel}</strong>
          </span>
        </div>
        <EpisodeStatusCards counts={episodes} />
        {episodes.total === 0 ? (
          <p className="section-note" data-testid="episodes-empty">
            No episodes in env <strong>{envLabel}</strong> yet. They appear here as soon as an
            expectation fires: on an event, a schedule, a poll, or a manual fire from{" "}
            <Link href="/actors">Actors &amp; modes</Link>.
          </p>
        ) : null}
      </section>

      <section className="section" aria-labelledby="nodes-heading">
        <div className="section-header">
          <h2 id="nodes-heading" className="section-title">
            Live nodes <span className="count-badge">{nodes.length}</span>
          </h2>
          <span className="section-meta">
            Heartbeat within the last {liveWindowSeconds} s, all envs
          </span>
        </div>
        {nodes.length > 0 ? (
          <LiveNodesTable nodes={nodes} liveWindowSeconds={liveWindowSeconds} />
        ) : (
          <EmptyState icon="server" title="No live nodes" testId="nodes-empty">
            No worker or console has sent a heartbeat in the last {liveWindowSeconds} seconds. Start
            a worker with <code>pnpm start</code>, or check that every node points at this database.
          </EmptyState>
        )}
      </section>

      <OverviewExtras />
    </>
  );
}
