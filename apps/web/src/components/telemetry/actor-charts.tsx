"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { ErrorCallout, LoadingRows, SectionHeader } from "@/components/ui/query-state";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";
import { useEnvInput, useUrlState } from "@/lib/url-state";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { LatencyChart, ThroughputChart } from "./actor-chart-panels";
import { EventChart } from "./event-chart";

const REFRESH_MS = 15_000;

/** The ranges core offers (ACTOR_CHART_RANGES), with the bucket each is drawn in. */
const RANGES = [
  { value: "1h", label: "Last hour (per minute)" },
  { value: "6h", label: "Last 6 hours (per minute)" },
  { value: "24h", label: "Last 24 hours (per hour)" },
  { value: "7d", label: "Last 7 days (per hour)" },
] as const;
type TRange = (typeof RANGES)[number]["value"];

function BoundSelect({
  label,
  value,
  options,
  testId,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  testId: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="filter-field">
      <span>{label}</span>
      <select data-testid={testId} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * One actor's throughput, queue wait and run time over a chosen range (?actor=, ?range=), with
 * the seed's alert conditions over the same buckets. The actors come from the env's episodes and
 * this console's registry (episodes.facets); the first is shown until one is chosen.
 */
export function ActorCharts() {
  const trpc = useTRPC();
  const env = useEnvInput();
  const { get, update } = useUrlState();
  const headingId = useId();
  const facets = useQuery({
    ...trpc.episodes.facets.queryOptions({ env }),
    refetchInterval: useRefetchInterval(60_000, { pushed: false }),
  });
  const actors = facets.data?.actors.map((entry) => entry.actorId) ?? [];
  const actorId = get("actor") ?? actors[0];
  const rangeParam = get("range");
  const range: TRange = RANGES.find((entry) => entry.value === rangeParam)?.value ?? "1h";
  const charts = useQuery({
    ...trpc.telemetry.actorCharts.queryOptions({ actorId: actorId ?? "", range, env }),
    enabled: actorId !== undefined,
    placeholderData: keepPreviousData,
    refetchInterval: useRefetchInterval(REFRESH_MS, { pushed: false }),
  });
  const actorOptions = (actorId && !actors.includes(actorId) ? [actorId, ...actors] : actors).map(
    (actor) => ({ value: actor, label: actor }),
  );

  return (
    <section className="section" aria-labelledby={headingId} data-testid="actor-charts">
      <SectionHeader id={headingId} title="Per actor" />
      <div className="filter-bar">
        <BoundSelect
          label="Actor"
          value={actorId ?? ""}
          options={actorOptions}
          testId="actor-charts-actor"
          onChange={(value) => update({ actor: value })}
        />
        <BoundSelect
          label="Range"
          value={range}
          options={RANGES}
          testId="actor-charts-range"
          onChange={(value) => update({ range: value === "1h" ? undefined : value })}
        />
        <span className="filter-bar-end note">
          Episodes of this env by the minute or hour they finished; alerts are cluster-wide.
        </span>
      </div>
      {actorId === undefined ? (
        facets.isError ? (
          <ErrorCallout error={facets.error} what="actors" />
        ) : facets.isPending ? (
          <LoadingRows rows={2} label="Loading actors" />
        ) : (
          <p className="note">No actor has episodes in this env yet.</p>
        )
      ) : charts.data !== undefined ? (
        <>
          <div className="chart-grid">
            <ThroughputChart charts={charts.data} />
            <LatencyChart charts={charts.data} which="wait" />
            <LatencyChart charts={charts.data} which="run" />
          </div>
          <h3 className="subsection-title">Alert conditions, same range</h3>
          <div className="chart-grid">
            {charts.data.alerts.map((series) => (
              <EventChart
                key={series.event}
                series={series}
                bucket={charts.data.bucket}
                totalLabel="in range"
                testId={`actor-alert-${series.event}`}
              />
            ))}
          </div>
        </>
      ) : charts.isError ? (
        <ErrorCallout error={charts.error} what="the actor's charts" />
      ) : (
        <LoadingRows rows={3} label="Loading the actor's charts" />
      )}
    </section>
  );
}
