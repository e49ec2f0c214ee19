"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount } from "@/lib/format-count";
import { formatBucket, zoneLabel } from "@/lib/format-time";
import { useTimeZone } from "@/lib/preferences/time-zone";
import type { TRouterOutputs } from "@/trpc/router-types";
import { BAR_CURSOR, BUCKET_X_AXIS, COUNT_Y_AXIS, TOOLTIP_STYLE } from "./chart-axes";

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
            <XAxis {...BUCKET_X_AXIS} tickFormatter={minuteLabel} />
            <YAxis {...COUNT_Y_AXIS} />
            <Tooltip
              cursor={BAR_CURSOR}
              labelFormatter={(label) =>
                `${typeof label === "string" ? minuteLabel(label) : ""} ${zoneName}`
              }
              contentStyle={TOOLTIP_STYLE}
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
