// Preloaded with `--import` into scenario 7's workers: shifts this process's wall clock (`Date`)
// by FAULTS_CLOCK_OFFSET_MS, the way a node with a wrong NTP setting sees time. Monotonic clocks
// (`performance.now()`, timers) are untouched, as they are on a real machine with a skewed wall
// clock; the history keeps real time through `performance.timeOrigin`.
import { readClockOffsetMs } from "./env";

const offsetMs = readClockOffsetMs();

if (offsetMs !== 0) {
  const RealDate = Date;
  class SkewedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offsetMs);
      // Any other form names an instant or fields explicitly: no skew, as with the real Date.
      else super(...(args as ConstructorParameters<typeof Date>));
    }

    static override now(): number {
      return RealDate.now() + offsetMs;
    }
  }
  globalThis.Date = SkewedDate as DateConstructor;
}
