import { median, percentile } from "../stats";
import type { HistoryResult } from "./run-history";

/** Issue 16's goal: every figure with history within 10% of the empty database's. */
const TOLERANCE = 0.1;

interface Figure {
  name: string;
  /** True when a larger value is better (items/s). */
  higherIsBetter: boolean;
  values: number[];
  digits: number;
}

export function historyMarkdown(
  result: HistoryResult,
  info: { command: string; node: string; loadBefore: number[]; loadAfter: number[] },
): string {
  const [empty, full] = result.phases;
  if (empty === undefined || full === undefined) throw new Error("two phases expected");
  const figures: Figure[] = [
    {
      name: "deferred drain, items/s (median of runs)",
      higherIsBetter: true,
      values: [empty, full].map((p) => median(p.drains.map((d) => d.itemsPerSecond))),
      digits: 0,
    },
    {
      name: "fire-to-start p50, ms",
      higherIsBetter: false,
      values: [empty, full].map((p) => percentile(p.latencyMs, 50)),
      digits: 1,
    },
    {
      name: "fire-to-start p99, ms",
      higherIsBetter: false,
      values: [empty, full].map((p) => percentile(p.latencyMs, 99)),
      digits: 1,
    },
    {
      name: "recovery sweep of 1,000 orphans, ms (median)",
      higherIsBetter: false,
      values: [empty, full].map((p) => median(p.sweepMs)),
      digits: 0,
    },
    {
      name: "console episode list (first page), p95 ms",
      higherIsBetter: false,
      values: [empty, full].map((p) => percentile(p.listMs, 95)),
      digits: 2,
    },
  ];
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(" ");
  const lines = [
    `\`${info.command}\` (Node ${info.node}; load average before ${load(info.loadBefore)}, after ${load(info.loadAfter)}; history seeded and vacuumed in ${result.seedSeconds.toFixed(0)} s)`,
    "",
    `| figure | empty | ${full.history.toLocaleString("en-US")} finished | change | within 10% |`,
    "| --- | ---: | ---: | ---: | :---: |",
  ];
  for (const figure of figures) {
    const [a = Number.NaN, b = Number.NaN] = figure.values;
    const change = (b - a) / a;
    const worse = figure.higherIsBetter ? -change : change;
    lines.push(
      `| ${figure.name} | ${a.toFixed(figure.digits)} | ${b.toFixed(figure.digits)} | ${change >= 0 ? "+" : ""}${(change * 100).toFixed(1)}% | ${worse <= TOLERANCE ? "yes" : "no"} |`,
    );
  }
  const problems = [...empty.problems, ...full.problems];
  if (problems.length > 0) lines.push("", `Problems: ${problems.join("; ")}`);
  return lines.join("\n");
}
