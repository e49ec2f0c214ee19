import { noFaults } from "./s1-no-faults";
import { killWorkers } from "./s2-kill-workers";
import { pauseWorker } from "./s3-pause-worker";
import { restartPostgres } from "./s4-restart-postgres";
import { partitionWorker } from "./s5-partition-worker";
import { dedupeRace } from "./s6-dedupe-race";
import { clockSkew } from "./s7-clock-skew";
import { killWithQueue } from "./s8-kill-with-queue";
import { restartPostgresWithQueue } from "./s9-restart-postgres-with-queue";
import { randomMix } from "./s10-random-mix";
import { limitsUnderFaults } from "./s11-limits-under-faults";
import { durableWaits } from "./s12-durable-waits";
import type { Scenario } from "./scenario";

/** Every scenario of issues 8 and 18, in the order `pnpm faults` runs them. */
export const SCENARIOS: readonly Scenario[] = [
  noFaults,
  killWorkers,
  pauseWorker,
  restartPostgres,
  partitionWorker,
  dedupeRace,
  clockSkew,
  killWithQueue,
  restartPostgresWithQueue,
  randomMix,
  limitsUnderFaults,
  durableWaits,
];
