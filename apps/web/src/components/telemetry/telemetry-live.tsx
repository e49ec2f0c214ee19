"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { FilterSelect } from "@/components/ui/filter-select";
import { LivePage } from "@/components/ui/live-list";
import { SectionHeader } from "@/components/ui/query-state";
import { useUrlState } from "@/lib/url-state";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { ActorCharts } from "./actor-charts";
import { EventChart } from "./event-chart";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

const REFRESH_MS = 15_000;

export const EVENT_GROUPS = [
  {
    title: "Work claims",
    events: [
      "cyclium.work_claims.acquired",
      "cyclium.work_claims.steal",
      "cyclium.work_claims.renew_failed",
      "cyclium.work_claims.busy",
      "cyclium.work_claims.renewed",
      "cyclium.work_claims.completed",
      "cyclium.work_claims.failed",
      "cyclium.work_claims.expired",
    ],
  },
  {
    title: "Episodes",
    events: [
      "cyclium.episode.started",
      "cyclium.episode.completed",
      "cyclium.episode.failed",
      "cyclium.episode.deduped",
      "cyclium.episode.fenced",
    ],
  },
  {
    title: "Trigger requests and triggers",
    events: [
      "cyclium.trigger_request.created",
      "cyclium.trigger_request.dispatched",
      "cyclium.trigger_request.expired",
      "cyclium.trigger.fired",
      "cyclium.trigger.skipped",
    ],
  },
  { title: "Recovery", events: ["cyclium.recovery.sweep"] },
] as const;

const ALL_EVENTS = EVENT_GROUPS.flatMap((group) => group.events);
const WINDOWS = { "60": "Last hour", "360": "Last 6 hours", "1440": "Last 24 hours" } as const;

export function TelemetryLive() {
  const trpc = useTRPC();
  const { get } = useUrlState();
  const windowParam = get("window");
  const minutes = windowParam === "360" || windowParam === "1440" ? Number(windowParam) : 60;
  const series = useQuery({
    ...trpc.telemetry.series.queryOptions({
      events: [...ALL_EVENTS],
      minutes,
      node: get("node") ?? null,
    }),
    placeholderData: keepPreviousData,
    refetchInterval: useRefetchInterval(REFRESH_MS, { pushed: false }),
  });
  return (
    <LivePage
      pageId="telemetry"
      query={series}
      refreshMs={REFRESH_MS}
      what="telemetry"
      filters={
        <>
          <ActorCharts />
          <SectionHeader title="Events" />
          <div className="filter-bar">
            <FilterSelect
              label="Window"
              param="window"
              allLabel="Last hour"
              options={[
                { value: "360", label: WINDOWS["360"] },
                { value: "1440", label: WINDOWS["1440"] },
              ]}
            />
            <FilterSelect
              label="Node"
              param="node"
              allLabel="All nodes"
              options={series.data?.nodes ?? []}
            />
            <span className="filter-bar-end note">
              Per-minute rollups every node writes to cyclium_telemetry; per node, not per env.
            </span>
          </div>
        </>
      }
    >
      {(data) => (
        <>
          {EVENT_GROUPS.map((group) => (
            <section className="section" key={group.title}>
              <SectionHeader title={group.title} />
              <div className="chart-grid">
                {data.series
                  .filter((entry) => (group.events as readonly string[]).includes(entry.event))
                  .map((entry) => (
                    <EventChart key={entry.event} series={entry} />
                  ))}
              </div>
            </section>
          ))}
        </>
      )}
    </LivePage>
  );
}
