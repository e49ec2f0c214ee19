// Retention (SPEC section 14): policies per table family, the bounded-batch pruner that applies
// them once per cluster at a time, and the record of its runs.
export {
  DEFAULT_RETENTION_POLICY,
  episodeAgeFor,
  formatRetentionAge,
  parseActorRetentionAges,
  parseRetentionAge,
  type ParsedActorAges,
  type ParsedRetentionAge,
  type RetentionPolicy,
} from "./retention-policy";
export {
  EMPTY_PRUNED_COUNTS,
  type PrunedCounts,
  type PrunerRun,
  type PrunerTrigger,
} from "./pruner-run-row";
export { listPrunerRuns, recordPrunerRun } from "./pruner-runs";
export {
  DEFAULT_PRUNER_BATCH_SIZE,
  DEFAULT_PRUNER_MAX_BATCHES,
  PRUNER_CLAIM_KEY,
  runPruner,
  type RunPrunerOptions,
  type RunPrunerResult,
} from "./run-pruner";
export {
  DEFAULT_PRUNER_INTERVAL_MS,
  prunerExtension,
  type PrunerExtensionOptions,
} from "./pruner-extension";
export { pruneByAge, AGE_PRUNED_FAMILIES, type AgePrunedFamily } from "./prune-by-age";
export {
  listActorsWithFinishedEpisodes,
  pruneFinishedEpisodes,
  type PrunedEpisodeBatch,
} from "./prune-episodes";
export { rollUpOldestTelemetryHour } from "./prune-telemetry";
export { describeRetentionPolicy, type RetentionPolicyLine } from "./describe-retention-policy";
