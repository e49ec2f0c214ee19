import type { XAxisProps, YAxisProps } from "recharts";

// The axes and tooltip every bucket chart draws (the per-actor charts and the event charts), so
// the Telemetry page's charts read alike.

export const AXIS_TICK = { fontSize: 10, fill: "var(--text-subtle)" };

export const TOOLTIP_STYLE = {
  background: "var(--surface)",
  borderColor: "var(--border)",
  color: "var(--text)",
};

/** The hover band of a bar chart's tooltip. */
export const BAR_CURSOR = { fill: "rgba(91, 91, 214, 0.08)" };

/** The x axis of bucket starts; the chart gives its `tickFormatter` (zone and bucket size). */
export const BUCKET_X_AXIS = {
  dataKey: "bucket",
  tick: AXIS_TICK,
  minTickGap: 28,
  tickLine: false,
  axisLine: false,
} satisfies XAxisProps;

/** Whole counts, at least 0 to 2 so a quiet chart does not draw 0.5 steps. */
export const COUNT_Y_AXIS = {
  allowDecimals: false,
  tickCount: 3,
  domain: [0, (dataMax: number) => Math.max(dataMax, 2)],
  tick: AXIS_TICK,
  tickLine: false,
  axisLine: false,
  width: 44,
} satisfies YAxisProps;
