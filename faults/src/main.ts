/**
 * `pnpm faults [--quick] [--only 1,3] [--check <dir>]`: the fault-injection suite (issue 8). Each
 * scenario starts four workers and a trigger-only writer on a private PostgreSQL, fires load at
 * them while a nemesis kills, pauses, partitions or restarts things, drains, and leaves its
 * evidence under faults/results/<run>/: every process's JSONL history, the nemesis log and a dump
 * of the episodes, step journal, claims and trigger requests. The checker then reads only those
 * files and prints a Jepsen-style table; any lost or duplicated write or broken invariant fails
 * the run (exit 1).
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkRun } from "./checker/check-run";
import { toMarkdown } from "./checker/report";
import type { ScenarioReport } from "./checker/run-facts";
import { killEveryChild } from "./cluster/cluster";
import { PostgresServer } from "./cluster/postgres-server";
import { parseSuiteArgs } from "./config";
import { runScenario, scenarioDir } from "./scenarios/run-scenario";
import { SCENARIOS } from "./scenarios/index";

const RESULTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../results");

function log(message: string): void {
  process.stderr.write(`[faults ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

function crashed(id: number, name: string, error: unknown): ScenarioReport {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return {
    id,
    name,
    counts: {
      attempted: 0,
      acknowledged: 0,
      lost: 0,
      duplicated: 0,
      fenced: 0,
      recovered: 0,
      unknown: 0,
    },
    details: {},
    violations: [`the scenario did not complete: ${message.split("\n").slice(0, 4).join(" | ")}`],
    passed: false,
  };
}

async function recheck(dir: string): Promise<ScenarioReport[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory());
  const reports: ScenarioReport[] = [];
  for (const entry of entries.sort((a, b) =>
    a.name.localeCompare(b.name, "en", { numeric: true }),
  )) {
    reports.push(await checkRun(path.join(dir, entry.name)));
  }
  return reports;
}

async function runSuite(quick: boolean, only: number[] | null, runDir: string) {
  const scenarios = only ? SCENARIOS.filter((s) => only.includes(s.id)) : SCENARIOS;
  const server = await PostgresServer.start(log);
  const cleanup = (): void => {
    killEveryChild();
    void server.destroy().finally(() => process.exit(130));
  };
  process.once("SIGINT", cleanup);
  process.once("SIGTERM", cleanup);
  const reports: ScenarioReport[] = [];
  try {
    for (const scenario of scenarios) {
      try {
        await runScenario(scenario, { server, runDir, quick, log });
        reports.push(await checkRun(scenarioDir(runDir, scenario)));
      } catch (error) {
        killEveryChild();
        reports.push(crashed(scenario.id, scenario.name, error));
      }
      const last = reports.at(-1);
      if (last)
        log(`s${last.id} ${last.passed ? "passed" : "FAILED"} ${JSON.stringify(last.counts)}`);
    }
  } finally {
    killEveryChild();
    await server.destroy();
  }
  return reports;
}

async function main(): Promise<void> {
  const args = parseSuiteArgs(process.argv.slice(2));
  const command = `pnpm faults ${process.argv.slice(2).join(" ")}`.trim();
  const started = new Date();
  const stamp = started.toISOString().replaceAll(":", "-").slice(0, 19);
  const runDir = args.checkDir ?? path.join(RESULTS_DIR, `${stamp}${args.quick ? "-quick" : ""}`);
  await mkdir(runDir, { recursive: true });
  const loadBefore = os.loadavg();
  const reports = args.checkDir
    ? await recheck(runDir)
    : await runSuite(args.quick, args.only, runDir);
  const minutes = ((Date.now() - started.getTime()) / 60_000).toFixed(1);
  const markdown = [
    toMarkdown(reports, command),
    "",
    `${minutes} min on ${os.cpus().length} CPUs, load ${loadBefore.map((l) => l.toFixed(1)).join("/")} before, ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join("/")} after.`,
  ].join("\n");
  await writeFile(path.join(runDir, "report.md"), `${markdown}\n`);
  await writeFile(path.join(runDir, "report.json"), `${JSON.stringify(reports, null, 2)}\n`);
  console.log(markdown);
  log(`results in ${path.relative(process.cwd(), runDir)}`);
  if (reports.length === 0 || reports.some((r) => !r.passed)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  killEveryChild();
  process.exit(1);
});
