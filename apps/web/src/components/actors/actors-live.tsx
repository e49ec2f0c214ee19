"use client";

import { useQuery } from "@tanstack/react-query";
import { LivePage } from "@/components/ui/live-list";
import { SectionHeader } from "@/components/ui/query-state";
import { useEnvInput } from "@/lib/url-state";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { ActorsSection } from "./actors-section";
import { CircuitBreakersSection } from "./circuit-breakers-section";
import { NodeModesSection } from "./node-modes-section";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

const REFRESH_MS = 3_000;

export function ActorsLive({
  canOperate,
  consoleEnv,
}: {
  canOperate: boolean;
  consoleEnv: string | null;
}) {
  const trpc = useTRPC();
  const env = useEnvInput();
  const actors = useQuery({
    ...trpc.actors.list.queryOptions({ env }),
    refetchInterval: useRefetchInterval(15_000),
  });
  const cluster = useQuery({
    ...trpc.modes.cluster.queryOptions(),
    refetchInterval: useRefetchInterval(REFRESH_MS),
  });
  const inspecting = env === undefined ? consoleEnv : env;
  // A manual fire runs through this console's node, so it creates the episode in its own env.
  const fireBlockedReason =
    inspecting === consoleEnv
      ? null
      : `Fires create episodes in this console's env (${consoleEnv ?? "default"}); switch back to it to fire.`;
  return (
    <LivePage pageId="actors" query={actors} refreshMs={REFRESH_MS} what="actors">
      {(list) => (
        <>
          <section className="section" aria-labelledby="actors-heading">
            <SectionHeader
              id="actors-heading"
              title={
                <>
                  Actors <span className="count-badge">{list.length}</span>
                </>
              }
              meta={
                fireBlockedReason ??
                "Fire creates a pending episode here and a trigger request a worker executes"
              }
            />
            <ActorsSection
              actors={list}
              canOperate={canOperate}
              fireBlockedReason={fireBlockedReason}
            />
          </section>
          <section className="section" aria-labelledby="breakers-heading">
            <SectionHeader
              id="breakers-heading"
              title="Circuit breakers"
              meta={`Event expectations in env ${inspecting ?? "default"}: open after consecutive failures, half-open after the wait`}
            />
            <CircuitBreakersSection env={env} />
          </section>
          <section className="section" aria-labelledby="modes-heading">
            <SectionHeader
              id="modes-heading"
              title="Node modes"
              meta="Live nodes of every env: modes and per-actor limits (max running at once) apply within a second, without restart"
            />
            {cluster.data ? (
              <NodeModesSection
                cluster={cluster.data}
                actorIds={list.map((actor) => actor.identifier)}
                definedLimits={Object.fromEntries(
                  list.map((actor) => [actor.identifier, actor.maxConcurrentEpisodes]),
                )}
                canOperate={canOperate}
              />
            ) : (
              <div className="panel panel-loading">Loading node modes…</div>
            )}
          </section>
        </>
      )}
    </LivePage>
  );
}
