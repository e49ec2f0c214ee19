import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Cluster } from "../cluster/cluster";
import type { PostgresServer } from "../cluster/postgres-server";
import { dumpDatabase } from "../history/dump-database";
import { HistoryWriter } from "../history/history-writer";
import { realNow } from "../history/records";
import type { ScenarioMeta } from "../checker/run-facts";
import { waitForDrain } from "./drain";
import { DEFAULT_CLUSTER, type Scenario } from "./scenario";

export interface RunScenarioOptions {
  server: PostgresServer;
  runDir: string;
  quick: boolean;
  log: (message: string) => void;
}

export function scenarioDir(runDir: string, scenario: Scenario): string {
  return path.join(runDir, `s${scenario.id}-${scenario.name}`);
}

/**
 * One scenario from start to evidence: a fresh database, the cluster, the scenario's load and
 * faults, the drain (every episode final, or a generous timeout), a graceful stop, then the
 * database dumped next to the histories and dropped. The checker works from those files alone.
 */
export async function runScenario(
  scenario: Scenario,
  options: RunScenarioOptions,
): Promise<string> {
  const { server, quick } = options;
  const dir = scenarioDir(options.runDir, scenario);
  const log = (message: string): void => options.log(`s${scenario.id} ${message}`);
  const database = `faults_s${scenario.id}`;
  const databaseUrl = await server.createDatabase(database);
  const nemesis = new HistoryWriter(path.join(dir, "history", "nemesis.jsonl"), "nemesis");
  const config = { ...DEFAULT_CLUSTER, ...scenario.cluster, dir, databaseUrl };
  const startedAt = realNow();
  log("starting the cluster");
  const cluster = await Cluster.start(config);
  let measured: ScenarioMeta["measured"] = {};
  let error: string | undefined;
  let drain: { drained: boolean; drainMs: number };
  try {
    log("running");
    measured = await scenario.run({ cluster, server, databaseUrl, nemesis, quick, log });
    log("draining");
    drain = await waitForDrain(databaseUrl, quick ? 180_000 : 600_000, log);
  } catch (thrown) {
    // The evidence so far is still worth checking: drain what can be drained and go on.
    error = thrown instanceof Error ? thrown.message : String(thrown);
    log(`scenario failed: ${error}`);
    drain = await waitForDrain(databaseUrl, 60_000, log);
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
    drained: drain.drained,
    drainMs: drain.drainMs,
    measured,
    ...(error === undefined ? {} : { error }),
  };
  await writeFile(path.join(dir, "scenario.json"), `${JSON.stringify(meta, null, 2)}\n`);
  log(`done in ${Math.round((meta.finishedAt - startedAt) / 1000)} s`);
  return dir;
}
