// Public face of a Cyclium node: `createCycliumNode` wires every runtime component of one
// process; extensions (recovery, workflows, fan-out triggers) plug in through `extensions`.
export {
  createCycliumNode,
  type CycliumNode,
  type CycliumNodeOptions,
} from "./create-cyclium-node";
export type { CycliumNodeContext, NodeExtension, NodeExtensionHandle } from "./node-extension";
export {
  claimsExpiryExtension,
  type ClaimsExpiryExtensionOptions,
} from "./claims-expiry-extension";
export { ExpectationTriggers, type ExpectationTriggersOptions } from "./expectation-triggers";
export { ScheduleTimer, type ScheduleTimerOptions } from "./schedule-timer";
export { PollTimer, type PollTimerOptions } from "./poll-timer";
