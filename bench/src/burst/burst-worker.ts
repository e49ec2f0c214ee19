/**
 * The worker process of `pnpm bench --burst`: a full-mode Cyclium node wired as apps/worker wires
 * it (pool of 10, postgres work claims, the trigger request poller, default jitter and queue
 * bound) hosting one actor with `slots` maxConcurrentEpisodes and one event-triggered expectation
 * whose strategy is a single step that returns done. It counts, per item, how often the strategy
 * ran, and reports its memory and counters every 250 ms.
 */
import { defineActor, done, type Strategy, type Logger } from "@cyclium/core";
import { createCycliumNode, type CycliumNode, Telemetry } from "@cyclium/core/worker";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import pg from "pg";
import type { BurstProgress, BurstRole, BurstTally, ChildMessage } from "../child/protocol";
import { itemOf } from "../systems/consumer";
import { payloadOf } from "../systems/payload";
import { reportToStderr } from "../systems/stderr-logger";
import { BURST_ACTOR_ID, BURST_EXPECTATION_ID, BURST_TOPIC } from "./burst-actor";

export interface BurstChannel {
  send(message: ChildMessage): Promise<void>;
  next(type: "go" | "stop"): Promise<void>;
  queryCount(): number;
}

const PROGRESS_MS = 250;
/** Fires in flight at once with `via: host` (each one INSERT on the pool of 10). */
const HOST_FIRE_CONCURRENCY = 16;

export async function runBurstWorker(role: BurstRole, channel: BurstChannel): Promise<void> {
  const logger = stderrLogger(role.label);
  // Per item: strategy inits and steps (Uint8: a count past 255 would be a disaster anyway).
  const inits = new Uint8Array(role.size);
  const steps = new Uint8Array(role.size);
  const counts = { received: 0, fired: 0, started: 0, stepped: 0, completed: 0, failed: 0 };

  const strategy: Strategy<unknown, number> = {
    init(_ctx, input) {
      const item = itemOf(input);
      inits[item] = Math.min(255, (inits[item] ?? 0) + 1);
      counts.started += 1;
      return item;
    },
    step(item) {
      steps[item] = Math.min(255, (steps[item] ?? 0) + 1);
      counts.stepped += 1;
      return done();
    },
  };
  const actor = defineActor({
    identifier: BURST_ACTOR_ID,
    maxConcurrentEpisodes: role.slots,
    expectations: [{ id: BURST_EXPECTATION_ID, strategy, trigger: { event: BURST_TOPIC } }],
  });
  const telemetry = new Telemetry();
  telemetry.subscribe(
    (event) => {
      if (event.name === "cyclium.episode.completed") counts.completed += 1;
      else counts.failed += 1;
    },
    { events: ["cyclium.episode.completed", "cyclium.episode.failed"] },
  );
  const pool = new pg.Pool({ connectionString: role.url, max: 10 });
  pool.on("error", (err) => logger.warn({ err }, "idle connection failed"));
  const node: CycliumNode = await createCycliumNode({
    db: pool,
    databaseUrl: role.url,
    kind: "worker",
    mode: "full",
    nodeIdentity: `bench-${role.label}`,
    stack: null,
    env: null,
    workClaims: "postgres",
    leaseSeconds: 120,
    poller: { enabled: true, intervalMs: 5_000, sourceStack: null },
    actors: [actor],
    logger,
    telemetry,
  });
  node.bus.subscribe(BURST_TOPIC, () => void (counts.received += 1));
  const progress = (): BurstProgress => {
    const memory = process.memoryUsage();
    return {
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      external: memory.external,
      arrayBuffers: memory.arrayBuffers,
      ...counts,
      queued: node.host.queuedCount(BURST_ACTOR_ID),
      running: node.host.runningCount(BURST_ACTOR_ID),
    };
  };
  await node.start();
  await channel.send({ type: "burstReady", pid: process.pid, progress: progress() });
  const timer = setInterval(
    () => void channel.send({ type: "burstProgress", progress: progress() }),
    PROGRESS_MS,
  );
  await channel.next("go");
  // What the worker holds at a chosen second: `pnpm bench --burst --burst-snapshot-at 60`.
  const snapshotAt = role.snapshotAtSeconds;
  if (snapshotAt !== undefined) {
    setTimeout(() => {
      const file = v8.writeHeapSnapshot(path.join(os.tmpdir(), "cyclium-burst.heapsnapshot"));
      logger.warn({ file }, "heap snapshot written");
    }, snapshotAt * 1000).unref();
  }
  const cpu = process.cpuUsage();
  const queriesAtGo = channel.queryCount();
  if (role.via === "host") {
    const startedAt = performance.now();
    await fireThroughHost(node, role.size, () => (counts.fired += 1));
    await channel.send({ type: "burstFired", ms: performance.now() - startedAt });
  }
  await channel.next("stop");
  clearInterval(timer);
  const final = progress();
  await node.stop({ graceMs: 10_000 });
  await pool.end();
  const used = process.cpuUsage(cpu);
  await channel.send({
    type: "burstStopped",
    progress: final,
    tally: tallyOf(inits, steps),
    usage: {
      queries: channel.queryCount() - queriesAtGo,
      cpuMs: (used.user + used.system) / 1000,
    },
  });
}

/**
 * The fallback of `--burst-via host`: the events the bus would deliver, fired straight through
 * the node's ActorHost as its event trigger fires them (trigger type `event`, the host's jitter
 * included), HOST_FIRE_CONCURRENCY at a time.
 */
async function fireThroughHost(node: CycliumNode, size: number, onFired: () => void) {
  let nextItem = 0;
  const lane = async (): Promise<void> => {
    while (nextItem < size) {
      const item = nextItem;
      nextItem += 1;
      const payload = payloadOf(item);
      const result = await node.host.fire({
        actorId: BURST_ACTOR_ID,
        expectationId: BURST_EXPECTATION_ID,
        triggerType: "event",
        input: payload,
        event: { id: `burst-${item}`, payload },
      });
      if (result.kind !== "created") throw new Error(`fire of item ${item} was ${result.kind}`);
      onFired();
    }
  };
  await Promise.all(Array.from({ length: HOST_FIRE_CONCURRENCY }, lane));
}

function tallyOf(inits: Uint8Array, steps: Uint8Array): BurstTally {
  const tally: BurstTally = { once: 0, more: 0, never: 0, steppedMore: 0, examples: [] };
  for (let item = 0; item < inits.length; item += 1) {
    const runs = inits[item] ?? 0;
    if (runs === 1) tally.once += 1;
    else {
      if (runs === 0) tally.never += 1;
      else tally.more += 1;
      if (tally.examples.length < 10) tally.examples.push({ item, runs });
    }
    if ((steps[item] ?? 0) > 1) tally.steppedMore += 1;
  }
  return tally;
}

function stderrLogger(label: string): Logger {
  const noop = (): void => undefined;
  return {
    debug: noop,
    info: noop,
    warn: (obj, msg) => reportToStderr(label, "warn", msg ?? "", obj),
    error: (obj, msg) => reportToStderr(label, "error", msg ?? "", obj),
  };
}
