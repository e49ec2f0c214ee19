import { setTimeout as sleep } from "node:timers/promises";
import { CycliumError } from "../errors/index";
import type { Logger } from "../telemetry/index";

/** How long a stop waits for aborted episodes to settle after the grace period. */
const ABORT_WAIT_MS = 5_000;

/**
 * The last part of a node's stop: running episodes finish their current step and the ends in
 * flight commit for up to `graceMs` (`idle` settles when they all have), then the hard stop aborts
 * them: whatever is unfinished stays `running` for recovery.
 */
export async function drainRunning(
  idle: Promise<void>,
  options: { graceMs: number; running: () => number; hardStop: AbortController; logger: Logger },
): Promise<void> {
  const timer = sleep(options.graceMs, undefined, { ref: false }).then(() => "timeout" as const);
  if ((await Promise.race([idle.then(() => "done" as const), timer])) === "timeout") {
    options.logger.warn(
      { running: options.running() },
      "grace period over; aborting running episodes",
    );
    options.hardStop.abort(
      new CycliumError("shutdown", "The node stopped before the episode finished."),
    );
    await Promise.race([idle, sleep(ABORT_WAIT_MS, undefined, { ref: false })]);
  }
}
