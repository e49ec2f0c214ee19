import { setTimeout as sleep } from "node:timers/promises";
import type { HealMode } from "../proxy/tcp-proxy";
import { waitUntil } from "./drain";
import { busiestWorker, runningByNode, stillHeldBy } from "./episodes-held";
import { fireLoad } from "./fire-load";
import { procOf } from "./nemesis";
import type { Scenario, ScenarioRun } from "./scenario";

/**
 * One partition: the busiest worker's proxy stops passing bytes either way (no FIN, no RST) for
 * longer than the lease and at least until other nodes took over what it held, while the worker
 * itself keeps running and its strategies ignore their AbortSignal. Then the partition heals,
 * delivering what was held back (`deliver`) or resetting every connection (`reset`).
 */
async function partitionOnce(
  run: ScenarioRun,
  heal: HealMode,
): Promise<{ held: number; cutMs: number }> {
  const leaseMs = run.cluster.config.leaseSeconds * 1000;
  const slot = await busiestWorker(run, 4);
  const proxy = slot.proxy;
  if (!proxy) throw new Error("scenario 5 needs proxied workers");
  const proc = procOf(slot);
  run.nemesis.write({ op: "nemesis", event: "partition", target: proc });
  proxy.partition();
  const cutAt = performance.now();
  // Read through the orchestrator's own connection: what the worker held when it was cut off.
  const held =
    (await runningByNode(run.databaseUrl)).find((r) => r.node === slot.identity)?.ids ?? [];
  run.log(`partitioned ${proc} holding ${held.length} episodes`);
  await sleep(2.5 * leaseMs);
  await waitUntil(
    async () => (await stillHeldBy(run.databaseUrl, slot.identity, held)) === 0,
    120_000,
    250,
  );
  run.nemesis.write({ op: "nemesis", event: "heal", target: proc });
  proxy.heal(heal);
  const cutMs = performance.now() - cutAt;
  run.log(`healed ${proc} (${heal}) after ${Math.round(cutMs / 1000)} s`);
  return { held: held.length, cutMs };
}

/**
 * Scenario 5: a worker cut from the database longer than its lease while its strategies keep
 * running. It must abort its work on its own (its lease lapsed by its own clock), another node
 * takes over, and nothing it sends once the partition heals may land.
 */
export const partitionWorker: Scenario = {
  id: 5,
  name: "partition",
  cluster: { proxied: true },
  async run(run) {
    const heals: HealMode[] = run.quick ? ["deliver"] : ["deliver", "reset", "deliver"];
    let firing = true;
    const load = fireLoad(run, {
      prefix: "s5",
      count: run.quick ? 60 : 360,
      ratePerSec: 5,
      // Two steps of 3.5 s that ignore the AbortSignal: the cut-off worker is most likely inside
      // one when its lease lapses (not waiting on a journal write, which would hang), so its
      // strategy computes on after the abort. Shorter than the 4 s staleness, so live episodes
      // do not look orphaned between two journal writes.
      input: { steps: 2, stepMs: 3_500, keepRunning: true },
    }).finally(() => {
      firing = false;
    });
    let held = 0;
    let cutMs = 0;
    for (const heal of heals) {
      if (!firing) break;
      const partition = await partitionOnce(run, heal);
      held += partition.held;
      cutMs = Math.max(cutMs, partition.cutMs);
      await sleep(2_000);
    }
    const tally = await load;
    return {
      partitions: heals.length,
      heldAtPartition: held,
      longestCutMs: Math.round(cutMs),
      ...tally,
    };
  },
};
