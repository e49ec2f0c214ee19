import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Cluster } from "../cluster/cluster";
import type { PostgresServer } from "../cluster/postgres-server";
import { dumpDatabase } from "../history/dump-database";
import { HistoryWriter } from "../history/history-writer";
import { realNow } from "../history/records";
import { snapshotOpen } from "../history/snapshot-open";
import type { ScenarioMeta } from "../checker/run-facts";
import { waitForQuiescence, type Quiescence } from "./quiescence";
import { DEFAULT_CLUSTER, stallWindowMs, type Measured, type Scenario } from "./scenario";

export interface ScenarioBounds {
  /** The scenario's own fires, faults and waits. */
  runMs: number;
  /** The wait for quiescence after it (every episode final, or nothing moving any more). */
  settleMs: number;
}

export interface RunScenarioOptions {
  server: PostgresServer;
  runDir: string;
  quick: boolean;
  seed: number;
  bounds: ScenarioBounds;
  log: (message: string) => void;
}

export function scenarioDir(runDir: string, scenario: Scenario): string {
  return path.join(runDir, `s${scenario.id}-${scenario.name}`);
}

class ScenarioTimeout extends Error {}

/**
 * Runs `work`, giving up after `ms`: the signal is aborted (loops stop, waits give up) and the
 * work's promise is left to settle on its own once the cluster is stopped.
 */
async function bounded<T>(work: Promise<T>, ms: number, controller: AbortController): Promise<T> {
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ScenarioTimeout(`did not finish within its ${Math.round(ms / 1000)} s bound`));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One scenario from start to evidence: a fresh database, the cluster, the scenario's load and
 * faults (bounded), then the wait for quiescence (bounded), a snapshot of whatever is still open
 * and who could own it while the cluster still runs, a graceful stop, the database dumped next
 * to the histories and dropped. The checker works from those files alone.
 */
export async function runScenario(
  scenario: Scenario,
  options: RunScenarioOptions,
): Promise<string> {
  const { server, quick, seed, bounds } = options;
  const dir = scenarioDir(options.runDir, scenario);
  const log = (message: string): void => options.log(`s${scenario.id} ${message}`);
  const database = `faults_s${scenario.id}`;
  const databaseUrl = await server.createDatabase(database);
  const nemesis = new HistoryWriter(path.join(dir, "history", "nemesis.jsonl"), "nemesis");
  const config = { ...DEFAULT_CLUSTER, ...scenario.cluster, dir, databaseUrl };
  const startedAt = realNow();
  log("starting the cluster");
  const cluster = await Cluster.start(config);
  const controller = new AbortController();
  let measured: Measured = {};
  let error: string | undefined;
  let settled: Quiescence = { kind: "timed_out", waitedMs: 0, pending: 0, running: 0 };
  let liveNodes: string[] = [];
  let settledAt: number | undefined;
  const stallMs = stallWindowMs(config);
  try {
    log("running");
    const run = scenario.run({
      cluster,
      server,
      databaseUrl,
      nemesis,
      quick,
      seed,
      signal: controller.signal,
      log,
    });
    measured = await bounded(run, bounds.runMs, controller);
  } catch (thrown) {
    // The evidence so far is still worth checking: settle what can be settled and go on.
    error = thrown instanceof Error ? thrown.message : String(thrown);
    log(`scenario failed: ${error}`);
  }
  try {
    log(
      `settling (quiet for ${Math.round(stallMs / 1000)} s, at most ${bounds.settleMs / 1000} s)`,
    );
    settled = await waitForQuiescence(databaseUrl, {
      stallMs,
      maxMs: error === undefined ? bounds.settleMs : Math.min(bounds.settleMs, 60_000),
      log,
    });
    log(`settled: ${settled.kind} after ${Math.round(settled.waitedMs / 1000)} s`);
    settledAt = realNow();
    liveNodes = cluster.liveIdentities();
    await snapshotOpen(databaseUrl, dir);
  } catch (thrown) {
    error ??= `settling failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
  } finally {
    await cluster.stop();
    nemesis.close();
  }
  await dumpDatabase(databaseUrl, dir);
  await server.dropDatabase(database);
  const meta: ScenarioMeta = {
    id: scenario.id,
    name: scenario.name,
    quick,
    leaseSeconds: config.leaseSeconds,
    staleAfterMs: config.staleAfterMs,
    recoveryIntervalMs: config.recoveryIntervalMs,
    startedAt,
    finishedAt: realNow(),
    drained: settled.kind === "drained",
    drainMs: settled.waitedMs,
    settled: settled.kind,
    stallMs,
    liveNodes,
    ...(settledAt === undefined ? {} : { settledAt }),
    measured,
    ...(error === undefined ? {} : { error }),
  };
  await writeFile(path.join(dir, "scenario.json"), `${JSON.stringify(meta, null, 2)}\n`);
  log(`done in ${Math.round((meta.finishedAt - startedAt) / 1000)} s`);
  return dir;
}
