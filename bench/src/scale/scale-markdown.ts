import type { ScaleConfig, ScalePoint } from "./run-scale";

const fixed = (n: number | null, digits: number) =>
  n === null || !Number.isFinite(n) ? "–" : n.toFixed(digits);
const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "–");

/** The `--scale` table, one row per cluster size, and how it was measured. */
export function scaleMarkdown(
  points: readonly ScalePoint[],
  config: ScaleConfig,
  info: { command: string; node: string; startedAt: string; loadBefore: number[] },
): string {
  const lines = [
    `## Cluster scale: real workers (runWorker) on one PostgreSQL`,
    "",
    "| workers | backends (per worker) | idle commits/s (per worker) | idle PostgreSQL CPU, % of a core | LISTEN deliveries per fired episode | statements sending NOTIFY per fired episode | drain items/s | backends while draining | recovery of " +
      `${int(config.orphans)} orphans, s | restarted (duplicates) | load (1 min) |`,
    "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ...points.map((p) => {
      const duplicates = p.problems.filter((x) => x.includes("more than once")).length;
      return (
        `| ${p.workers} | ${p.backends} (${fixed(p.backends / p.workers, 1)}) ` +
        `| ${fixed(p.idleCommitsPerSecond, 1)} (${fixed(p.idleCommitsPerSecond / p.workers, 2)}) ` +
        `| ${p.idleCpuCores === null ? "–" : fixed(p.idleCpuCores * 100, 1)} ` +
        `| ${fixed(p.deliveriesPerFire, 1)} | ${fixed(p.notifyStatementsPerFire, 1)} ` +
        `| ${int(p.drainItemsPerSecond)} | ${p.drainPeakBackends} | ${fixed(p.recoverySeconds, 2)} ` +
        `| ${p.restarted} (${duplicates === 0 ? 0 : "see problems"}) | ${fixed(p.load1, 1)} |`
      );
    }),
    "",
    `- Each size in a fresh database of the bench's own cluster; every worker is core's \`runWorker\`` +
      ` (full mode, postgres work claims, poller every 5 s, pruner, claims and findings expiry on;` +
      ` its recovery timer replaced by a sweep on demand) hosting the bench actor with 24 slots.`,
    `- Idle: ${config.idleSeconds} s after a 10 s settle. Backends: \`pg_stat_activity\` client` +
      ` backends of the database; commits: \`pg_stat_database.xact_commit\`; CPU: \`/proc\` of` +
      ` every server process (the whole cluster, which only this run uses).`,
    `- LISTEN deliveries: \`notification\` events of the workers' pg clients while ${config.probes}` +
      ` episodes are fired one at a time with \`createClient().fire\` (20 ms apart), divided by` +
      ` ${config.probes}; statements sending NOTIFY: \`pg_stat_statements\` calls in that window of` +
      ` statements calling pg_notify (one may send several notifications).`,
    `- Drain: ${int(config.drainItems)} pending requests seeded while the workers idle; the clock` +
      ` runs from the first claim to the last completion (the pollers' 5 s phase is not in it);` +
      ` backends while draining: the most client backends seen by the 10 ms polls of that clock.`,
    `- Recovery: a victim node starts ${int(config.orphans)} episodes whose step hangs and is killed` +
      ` with SIGKILL (its claims on a 2 s lease); after the drain every worker runs one sweep at` +
      ` once; the time runs until every orphan ran to its end, each exactly once.`,
    `- \`${info.command}\`, ${info.startedAt}, Node ${info.node}, load average before` +
      ` ${info.loadBefore.map((l) => l.toFixed(2)).join(" / ")}.`,
  ];
  const problems = points.flatMap((p) => p.problems.map((x) => `- ${p.workers} workers: ${x}`));
  if (problems.length > 0) lines.push("", "## Problems", "", ...problems);
  return lines.join("\n");
}
