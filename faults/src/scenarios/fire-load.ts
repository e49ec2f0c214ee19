import type { FireBatchResult } from "../cluster/commands";
import type { TRunInput } from "../cluster/recorded-strategy";
import type { ScenarioRun } from "./scenario";

export interface FireLoadOptions {
  prefix: string;
  count: number;
  ratePerSec: number;
  input?: TRunInput;
  /** Every n-th fire goes to the fail-policy actor (default: every second one). */
  failEvery?: number;
  /** When set, fire `i` goes to `actors[i % length]` instead. */
  actors?: string[];
}

/**
 * Has the writer fire `count` episodes at `ratePerSec`, half of them for the restart-policy actor
 * and half for the fail-policy one, each fire retried with its idempotency key while its outcome
 * is unknown. Resolves with the writer's tally once every fire has been answered.
 */
export async function fireLoad(
  run: ScenarioRun,
  options: FireLoadOptions,
): Promise<FireBatchResult> {
  const expectedMs = (options.count / options.ratePerSec) * 1000;
  return run.cluster.writer.request<FireBatchResult>(
    {
      cmd: "fire-batch",
      prefix: options.prefix,
      count: options.count,
      ratePerSec: options.ratePerSec,
      concurrency: 8,
      failEvery: options.failEvery ?? 2,
      ...(options.actors === undefined ? {} : { actors: options.actors }),
      input: options.input ?? { steps: 3, stepMs: 20 },
      retryForMs: 120_000,
    },
    expectedMs * 4 + 600_000,
  );
}
