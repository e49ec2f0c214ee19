import { cycliumSystem } from "../cyclium/system";
import type { BenchSystem } from "../system";
import { SQL_FLOOR_BATCH, SQL_FLOOR_LOOPS } from "./consumer";

/**
 * Cyclium's tables and seed, drained by its own statements with no runtime (consumer.ts): the
 * same rows written per item (episode started and completed, claim, step, request), so the same
 * exactly-once check holds. Drain only: there is no handler whose start latency means anything.
 */
export const sqlFloorSystem: BenchSystem = {
  ...cycliumSystem,
  id: "sql-floor",
  label: "SQL floor",
  settings: `no runtime: ${SQL_FLOOR_LOOPS} loops per process, each claimTriggerRequests (${SQL_FLOOR_BATCH}) → startEpisodes → endEpisodes (with the episode event's NOTIFY), through @cyclium/core's functions`,
  drainOnly: true,
};
