import { setTimeout as sleep } from "node:timers/promises";
import type { TPublishBatch } from "../cluster/commands";
import { ACTORS, PING_TOPIC } from "../cluster/fault-actors";
import type { Scenario, ScenarioRun } from "./scenario";

const MINUTE_MS = 60_000;

/**
 * Every node fires the same operator key at once: the writer and all four workers, one try each,
 * all racing for one insert.
 */
async function operatorFires(run: ScenarioRun, keys: number): Promise<number> {
  const nodes = [run.cluster.writer, ...run.cluster.workers.map((slot) => slot.child)];
  let answered = 0;
  await Promise.all(
    Array.from({ length: keys }, async (_, k) => {
      const key = `s6-op-${k}`;
      await Promise.all(
        nodes.map((node) =>
          node
            .request(
              { cmd: "fire", actor: ACTORS.restart, key, input: { steps: 1, stepMs: 10 } },
              120_000,
            )
            .then(() => (answered += 1)),
        ),
      );
    }),
  );
  return answered;
}

/**
 * Scenario 6: one event published 1,000 times over (each event reaches all five nodes, each node's
 * event trigger fires it), operator fires of the same keys from every node at once, and, in the
 * full run, both aligned on a minute boundary where every node reaches for the same cron window
 * (one claims its turn; the dedupe key is the net below).
 * Exactly one episode per dedupe key; no jitter (every node inserts at the same instant).
 */
export const dedupeRace: Scenario = {
  id: 6,
  name: "dedupe-race",
  async run(run) {
    const events = run.quick ? 150 : 1_000;
    const keys = run.quick ? 30 : 100;
    let aligned = false;
    if (!run.quick) {
      // Land the storm on the next cron tick: start it a second before the minute turns.
      const untilTick = MINUTE_MS - (Date.now() % MINUTE_MS);
      await sleep(untilTick > 1_500 ? untilTick - 1_000 : untilTick + MINUTE_MS - 1_000);
      aligned = true;
    }
    const batch: TPublishBatch = {
      cmd: "publish-batch",
      topic: PING_TOPIC,
      prefix: "s6-ev",
      count: events,
      concurrency: 16,
    };
    const [published, answered] = await Promise.all([
      run.cluster.writer.request<number>(batch, 600_000),
      operatorFires(run, keys),
    ]);
    return {
      events,
      published,
      operatorKeys: keys,
      operatorFiresAnswered: answered,
      alignedOnTick: aligned,
    };
  },
};
