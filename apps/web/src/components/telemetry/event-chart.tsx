"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount } from "@/lib/format-count";
import { formatBucket, zoneLabel } from "@/lib/format-time";
import { useTimeZone } from "@/lib/preferences/time-zone";
import type { TRouterOutputs } from "@/trpc/router-types";

type TSeries = TRouterOutputs["telemetry"]["series"]["series"][number];

/** The seed's alert conditions (claims section): what an operator must notice at once. */
export const ALERTS: Partial<Record<string, string>> = {
  "cyclium.work_claims.steal":
    "Steals in normal operation: nodes are dying or leases are too short.",
  "cyclium.work_claims.renew_failed":
    "Failed renewals: possible clock drift or database contention.",
};

/** One event's counts per minute (or hour) as bars, with its alert when the seed names one. */
export function EventChart({
  series,
  height = 120,
  bucket = "minute",
  totalLabel = "in window",
  testId = `chart-${series.event}`,
}: {
  series: TSeries;
  height?: number;
  bucket?: "minute" | "hour";
  totalLabel?: string;
  testId?: string;
}) {
  const alert = series.total > 0 ? ALERTS[series.event] : undefined;
  const color = alert ? "var(--danger)" : "var(--brand)";
  // The axis names its zone (UTC unless the operator chose local time in the top bar).
  const [zone] = useTimeZone();
  const minuteLabel = (iso: string) => formatBucket(iso, zone, bucket);
  const zoneName = zoneLabel(zone);
  return (
    <div className="card chart-card" data-alert={alert ? "true" : undefined} data-testid={testId}>
      <div className="chart-title">
        <span className="chart-name">{series.event.replace(/^cyclium\./, "")}</span>
        <span className="chart-total">
          {formatCount(series.total)} {totalLabel}
        </span>
      </div>
      <div style={{ width: "100%", height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={series.points} margin={{ top: 4, right: 4, bottom: 0, left: -18 }}>
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis
              dataKey="bucket"
              tickFormatter={minuteLabel}
              tick={{ fontSize: 10, fill: "var(--text-subtle)" }}
              minTickGap={28}
              tickLine={false}
              axisLine={false}
            />
            <YAxis
              allowDecimals={false}
              tickCount={3}
              domain={[0, (dataMax: number) => Math.max(dataMax, 2)]}
              tick={{ fontSize: 10, fill: "var(--text-subtle)" }}
              tickLine={false}
              axisLine={false}
              width={44}
            />
            <Tooltip
              cursor={{ fill: "rgba(91, 91, 214, 0.08)" }}
              labelFormatter={(label) =>
                `${typeof label === "string" ? minuteLabel(label) : ""} ${zoneName}`
              }
              contentStyle={{
                background: "var(--surface)",
                borderColor: "var(--border)",
                color: "var(--text)",
              }}
              formatter={(value) => [formatCount(Number(value)), "events"]}
            />
            <Bar dataKey="count" fill={color} radius={[2, 2, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className="chart-axis-label" data-testid="chart-axis-zone">
        per {bucket}, {zoneName}
      </div>
      {alert ? (
        <p className="chart-alert" role="alert" data-testid="telemetry-alert">
          {alert}
        </p>
      ) : null}
    </div>
  );
}
