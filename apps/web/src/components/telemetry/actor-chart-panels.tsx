"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatCount } from "@/lib/format-count";
import { formatLatency } from "@/lib/format-duration";
import { formatBucket, zoneLabel } from "@/lib/format-time";
import { useTimeZone } from "@/lib/preferences/time-zone";
import type { TRouterOutputs } from "@/trpc/router-types";
import { AXIS_TICK, BAR_CURSOR, BUCKET_X_AXIS, COUNT_Y_AXIS, TOOLTIP_STYLE } from "./chart-axes";

export type TActorCharts = TRouterOutputs["telemetry"]["actorCharts"];
type TPoint = TActorCharts["points"][number];

// Recharts colours a legend's text like its series; the status greens and ambers are below 4.5:1
// on the card, so the text keeps the page's colour and the swatch carries the series colour.
const legendText = (value: string) => <span style={{ color: "var(--text-muted)" }}>{value}</span>;

/** The x axis every per-actor chart shares: bucket starts in the zone the top bar chose. */
function useBucketAxis(bucket: TActorCharts["bucket"]) {
  const [zone] = useTimeZone();
  const zoneName = zoneLabel(zone);
  return {
    zoneName,
    tick: (iso: string) => formatBucket(iso, zone, bucket),
    label: (label: unknown) =>
      `${typeof label === "string" ? formatBucket(label, zone, bucket) : ""} ${zoneName}`,
  };
}

function ChartCard({
  name,
  testId,
  total,
  axisLabel,
  children,
}: {
  name: string;
  testId: string;
  total: string;
  axisLabel: string;
  children: React.ReactElement;
}) {
  return (
    <div className="card chart-card" data-testid={testId}>
      <div className="chart-title">
        <span className="chart-name">{name}</span>
        <span className="chart-total">{total}</span>
      </div>
      <div style={{ width: "100%", height: 160 }}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
      <div className="chart-axis-label" data-testid="chart-axis-zone">
        {axisLabel}
      </div>
    </div>
  );
}

const OUTCOMES = [
  { key: "completed", label: "completed", color: "var(--status-completed)" },
  { key: "failed", label: "failed", color: "var(--status-failed)" },
  { key: "cancelled", label: "cancelled", color: "var(--status-cancelled)" },
] as const;

/** Episodes finished per bucket, stacked by outcome. */
export function ThroughputChart({ charts }: { charts: TActorCharts }) {
  const axis = useBucketAxis(charts.bucket);
  const { completed, failed, cancelled } = charts.totals;
  return (
    <ChartCard
      name="throughput"
      testId="actor-chart-throughput"
      total={`${formatCount(completed + failed + cancelled)} finished (${formatCount(failed)} failed)`}
      axisLabel={`episodes finished per ${charts.bucket}, ${axis.zoneName}`}
    >
      <BarChart data={charts.points} margin={{ top: 4, right: 4, bottom: 0, left: -18 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis {...BUCKET_X_AXIS} tickFormatter={axis.tick} />
        <YAxis {...COUNT_Y_AXIS} />
        <Tooltip
          cursor={BAR_CURSOR}
          labelFormatter={axis.label}
          contentStyle={TOOLTIP_STYLE}
          formatter={(value, name) => [formatCount(Number(value)), name]}
        />
        <Legend iconSize={8} wrapperStyle={{ fontSize: 11 }} formatter={legendText} />
        {OUTCOMES.map((outcome) => (
          <Bar
            key={outcome.key}
            dataKey={outcome.key}
            name={outcome.label}
            stackId="outcome"
            fill={outcome.color}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartCard>
  );
}

/**
 * p50 and p95 of one duration per bucket as two lines with a dot per bucket: buckets without
 * finished episodes are gaps, so a lone busy minute still shows.
 */
export function LatencyChart({ charts, which }: { charts: TActorCharts; which: "wait" | "run" }) {
  const axis = useBucketAxis(charts.bucket);
  const p50: keyof TPoint = which === "wait" ? "waitP50Ms" : "runP50Ms";
  const p95: keyof TPoint = which === "wait" ? "waitP95Ms" : "runP95Ms";
  const worst = Math.max(0, ...charts.points.map((point) => point[p95] ?? 0));
  const name = which === "wait" ? "queue wait" : "run time";
  const span = which === "wait" ? "created → started" : "started → finished";
  return (
    <ChartCard
      name={name}
      testId={`actor-chart-${which}`}
      total={worst > 0 ? `worst p95 ${formatLatency(worst)}` : "no finished episodes"}
      axisLabel={`${span}, p50/p95 per ${charts.bucket}, ${axis.zoneName}`}
    >
      <LineChart data={charts.points} margin={{ top: 4, right: 4, bottom: 0, left: -4 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis {...BUCKET_X_AXIS} tickFormatter={axis.tick} />
        <YAxis
          tickCount={3}
          tickFormatter={(value: number) => formatLatency(value)}
          tick={AXIS_TICK}
          tickLine={false}
          axisLine={false}
          width={58}
        />
        <Tooltip
          labelFormatter={axis.label}
          contentStyle={TOOLTIP_STYLE}
          formatter={(value, label) => [formatLatency(Number(value)), label]}
        />
        <Legend iconSize={8} wrapperStyle={{ fontSize: 11 }} formatter={legendText} />
        <Line
          dataKey={p50}
          name="p50"
          stroke="var(--brand)"
          dot={{ r: 2 }}
          isAnimationActive={false}
        />
        <Line
          dataKey={p95}
          name="p95"
          stroke="var(--warn)"
          dot={{ r: 2 }}
          isAnimationActive={false}
        />
      </LineChart>
    </ChartCard>
  );
}
