import type { ItemCosts } from "../costs/item-costs";
import type { DrainFigure, Summary } from "./summary";

const num = (n: number | null | undefined, digits: number) =>
  n === null || n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(digits);
const bytes = (n: number | null | undefined) =>
  n === null || n === undefined || !Number.isFinite(n)
    ? "–"
    : Math.round(n).toLocaleString("en-US");

interface CostRow {
  label: string;
  value: (figure: DrainFigure, costs: ItemCosts | null) => number | null;
  format: (n: number | null) => string;
}

const ROWS: CostRow[] = [
  { label: "statements", value: (_, c) => c?.statements ?? null, format: (n) => num(n, 2) },
  {
    // PostgreSQL reads notifications in a transaction of its own: each listening connection a
    // NOTIFY wakes adds a commit (measured: 200 NOTIFYs, 2 listeners → 602 commits).
    label: "commits (incl. listener wake-ups)",
    value: (f) => f.commitsPerItem,
    format: (n) => num(n, 2),
  },
  { label: "round trips", value: (f) => f.queriesPerItem, format: (n) => num(n, 2) },
  {
    label: "row writes (ins + upd + del)",
    value: (_, c) => (c === null ? null : c.inserts + c.updates + c.deletes),
    format: (n) => num(n, 2),
  },
  { label: "inserts", value: (_, c) => c?.inserts ?? null, format: (n) => num(n, 2) },
  { label: "updates", value: (_, c) => c?.updates ?? null, format: (n) => num(n, 2) },
  { label: "of which HOT", value: (_, c) => c?.hotUpdates ?? null, format: (n) => num(n, 2) },
  { label: "deletes", value: (_, c) => c?.deletes ?? null, format: (n) => num(n, 2) },
  { label: "index entries", value: (_, c) => c?.indexEntries ?? null, format: (n) => num(n, 1) },
  { label: "WAL bytes", value: (f) => f.walBytesPerItem, format: bytes },
  {
    label: "PostgreSQL CPU ms",
    value: (f) => f.postgresCpuMsPerItem,
    format: (n) => num(n, 3),
  },
  { label: "worker CPU ms", value: (f) => f.workerCpuMsPerItem, format: (n) => num(n, 3) },
];

/**
 * The cost of one drained item per system at each process count, the ratio of cyclium's cost to
 * each other system's (above 1: cyclium pays more), and every system's writes and WAL by table.
 */
export function costMarkdown(summary: Summary): string[] {
  const { config, systems } = summary;
  const lines: string[] = [];
  const figureOf = (system: string, processes: number) =>
    summary.drain.find((f) => f.system === system && f.processes === processes);
  const anyCosts = summary.drain.some((f) => f.costs !== null && f.costs !== undefined);
  if (!anyCosts) return lines;
  for (const processes of config.processes) {
    const present = systems.filter((s) => figureOf(s.id, processes) !== undefined);
    const plural = processes === 1 ? "process" : "processes";
    lines.push(
      "",
      `## Cost of one drained item, ${processes} ${plural} (median of ${config.repetitions})`,
      "",
      `| per item | ${present.map((s) => s.label).join(" | ")} |`,
      `|--|${present.map(() => "--:").join("|")}|`,
    );
    for (const row of ROWS) {
      const cells = present.map((s) => {
        const figure = figureOf(s.id, processes);
        return figure === undefined ? "–" : row.format(row.value(figure, figure.costs ?? null));
      });
      lines.push(`| ${row.label} | ${cells.join(" | ")} |`);
    }
    const ours = figureOf("cyclium", processes);
    const others = present.filter((s) => s.id !== "cyclium");
    if (ours !== undefined && others.length > 0) {
      lines.push(
        "",
        `cyclium's cost ÷ theirs, ${processes} ${plural} (above 1: cyclium pays more per item)`,
        "",
        `| cyclium ÷ | ${others.map((s) => s.label).join(" | ")} |`,
        `|--|${others.map(() => "--:").join("|")}|`,
      );
      for (const row of ROWS) {
        const mine = row.value(ours, ours.costs ?? null);
        const cells = others.map((s) => {
          const figure = figureOf(s.id, processes);
          const theirs = figure === undefined ? null : row.value(figure, figure.costs ?? null);
          // Below what the table prints (0.00): a ratio to it would be noise, not a cost.
          if (mine === null || theirs === null || Math.abs(theirs) < 0.005) return "–";
          return `${(mine / theirs).toFixed(2)}×`;
        });
        lines.push(`| ${row.label} | ${cells.join(" | ")} |`);
      }
    }
  }
  // Per process count: a later run's WAL also holds what the earlier runs left to the server
  // (autovacuum of their tables), which this table shows outside the tables.
  for (const first of config.processes) {
    lines.push(
      "",
      `## Writes and WAL by table, per item, ${first} process${first === 1 ? "" : "es"}`,
      "",
      "A table's figures include its indexes and TOAST; index entries are counted from WAL records (btree leaf inserts and splits, GIN inserts) when pg_walinspect is on, else estimated as (inserts + non-HOT updates) × indexes. Page images are the copy of a page written at its first change after a checkpoint (the bench checkpoints before each run).",
    );
    for (const system of systems) {
      const costs = figureOf(system.id, first)?.costs;
      if (costs === null || costs === undefined) continue;
      const wal = costs.tables.reduce((sum, t) => sum + (t.walBytes ?? 0), 0);
      const total = wal + (costs.walOutsideTables ?? 0);
      lines.push(
        "",
        `**${system.label}** (statements from ${costs.statementsFrom}, index entries from ${costs.indexEntriesFrom === "wal" ? "WAL" : "an estimate"})`,
        "",
        "| table | inserts | updates | HOT | deletes | index entries | WAL bytes | of which page images | WAL share |",
        "|--|--:|--:|--:|--:|--:|--:|--:|--:|",
        ...costs.tables.map(
          (t) =>
            `| ${t.table} | ${num(t.inserts, 2)} | ${num(t.updates, 2)} | ${num(t.hotUpdates, 2)} | ${num(t.deletes, 2)} | ${num(t.indexEntries, 1)} | ${bytes(t.walBytes)} | ${bytes(t.pageImageBytes)} | ${t.walBytes === null || total <= 0 ? "–" : `${((t.walBytes / total) * 100).toFixed(0)}%`} |`,
        ),
      );
      const top = costs.topStatements ?? [];
      const statementsTable = () => {
        if (top.length === 0) return;
        lines.push(
          "",
          "| statement (most server time first) | calls per item | server ms per item (planning + execution) |",
          "|--|--:|--:|",
          ...top.map(
            (t) =>
              `| \`${t.query.replaceAll("|", "\\|").replaceAll("`", "'")}\` | ${num(t.perItem, 3)} | ${num(t.serverMsPerItem, 3)} |`,
          ),
        );
      };
      if (costs.walOutsideTables !== null) {
        lines.push(
          `| (no relation: commits, other databases) | | | | | | ${bytes(costs.walOutsideTables)} | ${total <= 0 ? "–" : `${((costs.walOutsideTables / total) * 100).toFixed(0)}%`} |`,
        );
      }
      statementsTable();
    }
  }
  const notes = summary.costNotes ?? [];
  if (notes.length > 0) lines.push("", ...notes.map((note) => `- ${note}`));
  return lines;
}
