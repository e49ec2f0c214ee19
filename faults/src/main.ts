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
import { zeroCounts, type ScenarioReport } from "./checker/run-facts";
import { killEveryChild } from "./cluster/cluster";
import { PostgresServer } from "./cluster/postgres-server";
import { parseSuiteArgs } from "./config";
import { runScenario, scenarioDir, type ScenarioBounds } from "./scenarios/run-scenario";
import { SCENARIOS } from "./scenarios/index";
import type { Scenario } from "./scenarios/scenario";

const RESULTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../results");

/**
 * Time bounds, so that no run can hang CI. A quick scenario takes 15-60 s on a loaded 2-core
 * machine (its run phase under 40 s, the settle a few seconds unless work is stuck, then 46 s of
 * stillness); each phase gets three to four times that. The whole quick run (5.5 min at load 5,
 * 8 min at load 12 on 2 cores) must end inside test:all's 600 s limit for the phase with its own
 * report, so it stops at 560 s; the full run (about 20 min) at 60 min.
 */
const QUICK_BOUNDS: ScenarioBounds = { runMs: 150_000, settleMs: 120_000 };
const FULL_BOUNDS: ScenarioBounds = { runMs: 1_200_000, settleMs: 600_000 };
const QUICK_DEADLINE_MS = 560_000;
const FULL_DEADLINE_MS = 3_600_000;

function log(message: string): void {
  process.stderr.write(`[faults ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

export function crashed(id: number, name: string, error: unknown): ScenarioReport {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return {
    id,
    name,
    counts: zeroCounts(),
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

interface SuiteOptions {
  quick: boolean;
  only: number[] | null;
  /** Scenarios run at once, each lane on its own PostgreSQL server. */
  lanes: number;
  seed: number;
  runDir: string;
  /** Filled as scenarios finish, so that the overall deadline can still report them. */
  reports: ScenarioReport[];
}

async function runSuite(options: SuiteOptions): Promise<ScenarioReport[]> {
  const { only, lanes, reports } = options;
  const scenarios = only ? SCENARIOS.filter((s) => only.includes(s.id)) : SCENARIOS;
  const cleanup = (): void => {
    killEveryChild();
    void Promise.all([...servers].map((server) => server.destroy())).finally(() =>
      process.exit(130),
    );
  };
  process.once("SIGINT", cleanup);
  process.once("SIGTERM", cleanup);
  // The lanes take the next scenario in order as each finishes; a lane runs on a server of its
  // own, so a PostgreSQL restart in one lane never touches another lane's scenario.
  const queue = [...scenarios];
  const laneCount = Math.max(1, Math.min(lanes, scenarios.length));
  try {
    // Started one after another: each start clears what a killed run left behind.
    const laneServers: PostgresServer[] = [];
    for (let lane = 0; lane < laneCount; lane += 1) {
      const server = await PostgresServer.start(log, lane);
      servers.add(server);
      laneServers.push(server);
    }
    await Promise.all(laneServers.map((server) => runLane(queue, server, options)));
  } finally {
    killEveryChild();
    await Promise.all(
      [...servers].map(async (server) => {
        servers.delete(server);
        await server.destroy();
      }),
    );
  }
  reports.sort((a, b) => a.id - b.id);
  return reports;
}

/** One lane: on its own PostgreSQL server, takes scenarios off the shared queue until none is left. */
async function runLane(
  queue: Scenario[],
  server: PostgresServer,
  options: SuiteOptions,
): Promise<void> {
  const { quick, seed, runDir, reports } = options;
  const bounds = quick ? QUICK_BOUNDS : FULL_BOUNDS;
  for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
    const started = performance.now();
    let report: ScenarioReport;
    try {
      await runScenario(scenario, { server, runDir, quick, seed, bounds, log });
      report = await checkRun(scenarioDir(runDir, scenario));
    } catch (error) {
      // runScenario stops its own cluster; what it could not stop dies with the run.
      report = crashed(scenario.id, scenario.name, error);
    }
    reports.push(report);
    const seconds = Math.round((performance.now() - started) / 1000);
    log(
      `s${report.id} ${report.passed ? "passed" : "FAILED"} in ${seconds} s ${JSON.stringify(report.counts)}`,
    );
  }
}

const servers = new Set<PostgresServer>();

async function writeReport(
  reports: readonly ScenarioReport[],
  runDir: string,
  command: string,
  started: Date,
  loadBefore: number[],
): Promise<void> {
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
}

async function main(): Promise<void> {
  const args = parseSuiteArgs(process.argv.slice(2));
  const command = `pnpm faults ${process.argv.slice(2).join(" ")}`.trim();
  const started = new Date();
  const stamp = started.toISOString().replaceAll(":", "-").slice(0, 19);
  const runDir = args.checkDir ?? path.join(RESULTS_DIR, `${stamp}${args.quick ? "-quick" : ""}`);
  await mkdir(runDir, { recursive: true });
  const loadBefore = os.loadavg();
  if (args.checkDir) {
    const reports = await recheck(runDir);
    await writeReport(reports, runDir, command, started, loadBefore);
    if (reports.length === 0 || reports.some((r) => !r.passed)) process.exitCode = 1;
    return;
  }
  const seed = args.seed ?? Math.floor(Math.random() * 0x1_0000_0000);
  log(`seed ${seed} (scenario 10 replays its faults with --seed ${seed})`);
  const reports: ScenarioReport[] = [];
  const deadlineMs =
    args.deadlineS !== null
      ? args.deadlineS * 1000
      : args.quick
        ? QUICK_DEADLINE_MS
        : FULL_DEADLINE_MS;
  // The hard stop: whatever is running is killed, what finished is reported, and the run fails.
  const deadline = setTimeout(() => {
    log(`the run passed its ${deadlineMs / 1000} s deadline: killing the cluster`);
    killEveryChild();
    reports.push(crashed(0, "deadline", `the whole run passed its ${deadlineMs / 1000} s bound`));
    const destroyed = Promise.all([...servers].map((server) => server.destroy()));
    void Promise.race([destroyed, new Promise((resolve) => setTimeout(resolve, 15_000))])
      .then(() => writeReport(reports, runDir, `${command} (deadline)`, started, loadBefore))
      .finally(() => process.exit(1));
  }, deadlineMs);
  const lanes = args.lanes ?? (args.quick ? 2 : 1);
  await runSuite({ quick: args.quick, only: args.only, lanes, seed, runDir, reports });
  clearTimeout(deadline);
  await writeReport(reports, runDir, command, started, loadBefore);
  if (reports.length === 0 || reports.some((r) => !r.passed)) process.exitCode = 1;
}

// Last resort: no cluster process outlives the orchestrator, whichever way it exits.
process.on("exit", killEveryChild);

main().catch((error: unknown) => {
  console.error(error);
  killEveryChild();
  process.exit(1);
});
