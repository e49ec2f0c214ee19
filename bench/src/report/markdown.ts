import type { SystemId } from "../systems/system-id";
import { costMarkdown } from "./cost-markdown";
import type { DrainFigure, Summary } from "./summary";

/** Whole numbers, with one decimal below 10 (pg-boss's defaults drain ~0.5 items/s). */
const int = (n: number) =>
  !Number.isFinite(n) ? "–" : n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString("en-US");
const dec = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
const pct = (n: number) => (Number.isFinite(n) ? `${(n * 100).toFixed(0)}%` : "–");
const ratio = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "–");

/** The report as markdown: drain, latency, calibration and the ratios of ours to the others. */
export function toMarkdown(summary: Summary): string {
  const { config, info } = summary;
  const systems = summary.systems;
  const header = `| | ${systems.map((s) => s.label).join(" | ")} |`;
  const rule = `|--|${systems.map(() => "--:").join("|")}|`;
  const row = (label: string, cell: (system: SystemId) => string) =>
    `| ${label} | ${systems.map((s) => cell(s.id)).join(" | ")} |`;
  const drainOf = (system: SystemId, processes: number) =>
    summary.drain.find((f) => f.system === system && f.processes === processes);
  const drainRow = (label: string, processes: number, value: (f: DrainFigure) => string) =>
    row(label, (system) => {
      const figure = drainOf(system, processes);
      return figure === undefined ? "–" : value(figure);
    });
  const latencyOf = (system: SystemId) => summary.latency.find((f) => f.system === system);

  const lines: string[] = [];
  lines.push(
    `## Drain: ${int(config.items)} items, median of ${config.repetitions}, concurrency ${config.concurrency} per process`,
    "",
    header,
    rule,
  );
  for (const p of config.processes) {
    const plural = p === 1 ? "process" : "processes";
    lines.push(
      drainRow(
        `**items/s, ${p} ${plural}**`,
        p,
        (f) => `**${int(f.itemsPerSecond)}**${f.windowed ? "ᵂ" : ""}`,
      ),
      drainRow(`seconds, ${p} ${plural}`, p, (f) => dec(f.seconds, 2)),
      drainRow(`share of UPDATE ceiling, ${p} ${plural}`, p, (f) => pct(f.fractionOfCeiling)),
      drainRow(`commits/item, ${p} ${plural}`, p, (f) => dec(f.commitsPerItem, 2)),
      drainRow(`WAL bytes/item, ${p} ${plural}`, p, (f) => int(f.walBytesPerItem)),
      drainRow(`round trips/item, ${p} ${plural}`, p, (f) => dec(f.queriesPerItem, 2)),
      drainRow(`worker CPU ms/item, ${p} ${plural}`, p, (f) => dec(f.workerCpuMsPerItem, 3)),
      drainRow(`PostgreSQL CPU ms/item, ${p} ${plural}`, p, (f) =>
        f.postgresCpuMsPerItem === null ? "–" : dec(f.postgresCpuMsPerItem, 3),
      ),
    );
  }
  if (summary.drain.some((f) => f.windowed)) {
    lines.push(
      "",
      `ᵂ measured over a ${config.slowWindowMs / 1000} s window: at its defaults it would need hours for all items.`,
    );
  }

  lines.push(...costMarkdown(summary));

  lines.push(
    "",
    `## Idle latency: fire commit → handler start, ms, median over ${config.repetitions} repetition(s)`,
    "",
    header,
    rule,
    row("samples/repetition", (s) => int(latencyOf(s)?.samplesPerRepetition ?? Number.NaN)),
    row("p50", (s) => dec(latencyOf(s)?.p50 ?? Number.NaN)),
    row("p95", (s) => dec(latencyOf(s)?.p95 ?? Number.NaN)),
    row("**p99**", (s) => `**${dec(latencyOf(s)?.p99 ?? Number.NaN)}**`),
    row("max (all repetitions)", (s) => dec(latencyOf(s)?.max ?? Number.NaN)),
  );

  lines.push("", "## Ours / theirs (drain: >1 = we are faster; latency: <1 = we start sooner)", "");
  lines.push(
    `| against | ${config.processes.map((p) => `drain, ${p} proc.`).join(" | ")} | latency p50 | latency p99 |`,
    `|--|${config.processes.map(() => "--:").join("|")}|--:|--:|`,
  );
  for (const r of summary.ratios) {
    const label = systems.find((s) => s.id === r.against)?.label ?? r.against;
    lines.push(
      `| ${label} | ${r.drain.map((d) => ratio(d.throughput)).join(" | ")} | ${ratio(r.latencyP50)} | ${ratio(r.latencyP99)} |`,
    );
  }

  lines.push(
    "",
    "## Calibration: single-row UPDATE loop (autocommit, one row per client)",
    "",
    "| processes | clients/process | UPDATE/s | WAL bytes/update |",
    "|--:|--:|--:|--:|",
    ...summary.calibration.map(
      (c) =>
        `| ${c.processes} | ${c.clientsPerProcess} | ${int(c.updatesPerSecond)} | ${int(c.walBytesPerUpdate)} |`,
    ),
  );

  const pg = info.postgres;
  lines.push(
    "",
    "## Setup",
    "",
    ...systems.map((s) => `- ${s.label}: ${s.settings}`),
    `- PostgreSQL ${pg.server_version ?? "?"} (${info.database}), synchronous_commit=${pg.synchronous_commit ?? "?"}, fsync=${pg.fsync ?? "?"}, shared_buffers=${pg.shared_buffers ?? "?"}×8kB`,
    `- Node ${info.node}, ${info.cpus} CPUs, load average before ${info.loadBefore.map((l) => l.toFixed(2)).join(" / ")}, after ${info.loadAfter.map((l) => l.toFixed(2)).join(" / ")}`,
    `- \`${info.command}\`, ${info.startedAt} → ${info.finishedAt}`,
    "- WAL is the whole cluster's: other databases' writes during a run count too.",
    `- Each drain's seed gets VACUUM (ANALYZE) before the checkpoint${info.database === "embedded" ? "; autovacuum is off from the seed to the drain's end" : ""}.`,
  );
  if (summary.problems.length > 0) {
    lines.push("", "## Problems", "", ...summary.problems.map((p) => `- ${p}`));
  }
  return lines.join("\n");
}
