// Public face of modes: the in-memory ModeController a node consults on its hot path, the
// ModeSync that applies overrides stored by other processes, and the store functions the
// console uses to change any node's modes. Operator-set actor limits (ConcurrencyLimits,
// cyclium_concurrency_overrides) travel the same way.
export { MODES, ZMode, ALL_NODES, MODES_CHANNEL } from "./mode";
export type { Mode, ModeOverride, ModeStatus } from "./mode";
export { resolveModes, effectiveModeFor } from "./resolve-modes";
export type { OverrideEntry, ResolvedModes } from "./resolve-modes";
export {
  ModeController,
  type ModeControllerOptions,
  type ModeChangeListener,
} from "./mode-controller";
export { ModeSync, type ModeSyncOptions } from "./mode-sync";
export { setModeOverride, type SetModeOverrideOptions } from "./set-mode-override";
export {
  clearModeOverride,
  type ClearModeOverrideOptions,
  type ClearModeOverrideResult,
} from "./clear-mode-override";
export {
  clearAllModeOverrides,
  type ClearAllModeOverridesOptions,
} from "./clear-all-mode-overrides";
export { listModeOverrides, type ListModeOverridesOptions } from "./list-mode-overrides";
export {
  ZMaxConcurrentEpisodes,
  resolveConcurrencyLimits,
  type ConcurrencyOverride,
  type ConcurrencyOverrideEntry,
} from "./concurrency-override";
export { ConcurrencyLimits, type ConcurrencyLimitsListener } from "./concurrency-limits";
export {
  setConcurrencyOverride,
  type SetConcurrencyOverrideOptions,
} from "./set-concurrency-override";
export {
  clearConcurrencyOverride,
  type ClearConcurrencyOverrideOptions,
  type ClearConcurrencyOverrideResult,
} from "./clear-concurrency-override";
export {
  listConcurrencyOverrides,
  type ListConcurrencyOverridesOptions,
} from "./list-concurrency-overrides";
export {
  clearNodeOverrides,
  type ClearNodeOverridesOptions,
  type ClearNodeOverridesResult,
} from "./clear-node-overrides";
