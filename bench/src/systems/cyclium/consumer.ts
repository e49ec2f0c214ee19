import { defineActor, done, type Strategy, type Logger } from "@cyclium/core";
import { createCycliumNode, PreparingClient, Telemetry } from "@cyclium/core/worker";
import pg from "pg";
import { itemOf, type Consumer, type ConsumerOptions } from "../consumer";
import { reportToStderr } from "../stderr-logger";
import { BENCH_ACTOR_ID, BENCH_EXPECTATION_ID } from "./actor";
import { registerBenchTracing } from "./tracing";

/**
 * Requests claimed per actor beyond the free slots: our counterpart of graphile-worker's
 * localQueue, set to the same 500. Past 192 a larger prefetch only saves claims, neither commits
 * nor time (docs/benchmarks.md, "Batched writes and prefetch").
 */
export const CYCLIUM_PREFETCH = 500;

/**
 * A full-mode Cyclium node as apps/worker wires it (createCycliumNode with postgres work claims
 * and the trigger request poller), hosting one actor whose strategy does nothing: `init` reports
 * the item, the single `step` returns done. The actor's maxConcurrentEpisodes is the process's
 * concurrency, as graphile-worker's concurrentJobs is.
 */
export async function prepareCycliumConsumer(options: ConsumerOptions): Promise<Consumer> {
  const logger = stderrLogger(options.label);
  const tracing = options.trace === true ? registerBenchTracing() : undefined;
  const noop: Strategy<unknown, null> = {
    init(_ctx, input) {
      options.onExecute(itemOf(input));
      return null;
    },
    step() {
      return done();
    },
  };
  const actor = defineActor({
    identifier: BENCH_ACTOR_ID,
    maxConcurrentEpisodes: options.concurrency,
    ...(options.globalLimit === undefined ? {} : { concurrency: { global: options.globalLimit } }),
    expectations: [{ id: BENCH_EXPECTATION_ID, strategy: noop, trigger: { manual: true } }],
  });
  // One connection per running episode plus one for the poller, as graphile's maxPoolSize.
  // Named prepared statements, as runWorker's pool on a direct connection.
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.concurrency + 1,
    Client: PreparingClient,
  });
  pool.on("error", (err) => logger.warn({ err }, "idle connection failed"));
  const node = await createCycliumNode({
    db: pool,
    databaseUrl: options.url,
    kind: "worker",
    mode: "full",
    nodeIdentity: `bench-${options.label}`,
    stack: null,
    env: null,
    workClaims: "postgres",
    leaseSeconds: 120,
    poller: {
      enabled: true,
      intervalMs: 5_000,
      sourceStack: null,
      prefetch: CYCLIUM_PREFETCH,
    },
    actors: [actor],
    logger,
    telemetry: new Telemetry(),
  });
  return {
    start: () => node.start(),
    async stop() {
      await node.stop({ graceMs: 10_000 });
      await pool.end();
      await tracing?.shutdown();
    },
  };
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
