// The repeating timer the sweeps share (recovery, claims expiry, findings expiry, pruner): the
// next run is timed from the end of the previous one.
export {
  startRepeatAfterRun,
  type RepeatAfterRunOptions,
  type RepeatingRun,
} from "./repeat-after-run";
export { jitteredDelay, startJitteredInterval, type JitteredInterval } from "./jittered-interval";
