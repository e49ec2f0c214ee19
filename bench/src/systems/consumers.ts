import type { Consumer, ConsumerOptions } from "./consumer";
import type { BuiltinSystemId } from "./system-id";

/** Loads only the system this worker process runs, so each process pays for one library. */
export async function prepareConsumer(
  system: BuiltinSystemId,
  options: ConsumerOptions,
): Promise<Consumer> {
  switch (system) {
    case "cyclium":
      return (await import("./cyclium/consumer")).prepareCycliumConsumer(options);
    case "cyclium-traced":
      return (await import("./cyclium/consumer")).prepareCycliumConsumer({
        ...options,
        trace: true,
      });
    case "cyclium-limited":
      return (await import("./cyclium/consumer")).prepareCycliumConsumer({
        ...options,
        globalLimit: (await import("./cyclium/actor")).BENCH_GLOBAL_LIMIT,
      });
    case "graphile-worker":
      return (await import("./graphile-worker/consumer")).prepareGraphileConsumer(options);
    case "pg-boss":
      return (await import("./pg-boss/consumer")).preparePgBossConsumer(options, "defaults");
    case "pg-boss-batched":
      return (await import("./pg-boss/consumer")).preparePgBossConsumer(options, "batched");
    case "dbos":
      return (await import("./dbos/consumer")).prepareDbosConsumer(options);
    case "sql-floor":
      return (await import("./sql-floor/consumer")).prepareSqlFloorConsumer(options);
  }
}
