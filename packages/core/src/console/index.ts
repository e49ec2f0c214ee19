// @cyclium/core/console: the console's face (apps/web, the `cyclium` command, the demo's seed).
// Read models, operator commands, sign-in, users and audit, each still owned by its concept's
// folder; this file only chooses what the console may call. Not for a team's deployment: those
// use the root, `/client` and `/worker`.
export { getOverviewStats, type OverviewStats } from "./get-overview-stats";
export { listKnownEnvs } from "./list-known-envs";
export {
  ActorRegistry,
  type AgentDefinition,
  type CreateAgentDefinitionResult,
  MAX_FIRE_DELAY_MS,
  MAX_PRIORITY,
  MIN_PRIORITY,
  StrategyRegistry,
  TRIGGER_KINDS,
  type UpdateAgentDefinitionResult,
  ZAgentDefinitionChanges,
  ZAgentDefinitionInput,
  ZTrigger,
  createAgentDefinition,
  findExpectation,
  getAgentDefinition,
  listAgentDefinitions,
  listCircuitBreakers,
  loadAgentDefinitions,
  setAgentDefinitionEnabled,
  updateAgentDefinition,
} from "../actors/index";
export {
  type ExpectationInputSchema,
  describeInputSchemas,
  validateExpectationInput,
} from "../actors/input-schemas/index";
export { listActors } from "../actors/queries/index";
export { type AuditOutcome, insertAuditEntry, listAuditEntries } from "./audit/index";
export {
  ALL_TOPICS,
  BUS_CHANNEL,
  type Bus,
  type BusEvent,
  MemoryBus,
  PgBus,
  type Unsubscribe,
  createBusPublisher,
} from "../bus/index";
export {
  CLAIM_STATES,
  PostgresWorkClaims,
  type WorkClaims,
  type WorkClaimsMode,
  loadWorkClaims,
  sweepExpiredClaims,
} from "../claims/index";
export { listEpisodeLeases, listWorkClaims, summariseWorkClaims } from "../claims/queries/index";
export {
  type TRetentionEnv,
  ZEnvBoolean,
  ZEnvText,
  ZRetentionEnv,
  describeEnvIssues,
  retentionPolicyFromEnv,
  withoutEmptyValues,
} from "../config/index";
export {
  FREE_FAILURES,
  type SignInThrottle,
  apiTokenReachesTenant,
  authenticateApiToken,
  createApiToken,
  createSignInThrottle,
  endSession,
  findSession,
  generateSecretToken,
  hashSecretToken,
  listApiTokens,
  openSession,
  revokeApiToken,
} from "./auth/index";
export { withTransaction } from "../db/index";
export { DEFAULT_DEPLOYMENT } from "../deployment/index";
export {
  EPISODE_STATUSES,
  type Episode,
  type EpisodeCommandResult,
  TRIGGER_TYPES,
  archiveEpisode,
  cancelEpisode,
  findLiveEpisodeId,
  loadEpisode,
} from "../episodes/index";
export { listEpisodeAttempts } from "../episodes/attempts/index";
export { retryEpisode, retryEpisodeWithInput } from "../retries/index";
export {
  type BulkEpisodeCommand,
  type BulkEpisodeCommandOutcome,
  previewBulkEpisodeCommand,
  runBulkEpisodeCommand,
  type EpisodeListFilters,
  countEpisodes,
  episodeFilterSql,
  getEpisodeDetail,
  listEpisodeFacets,
  listEpisodes,
} from "./episodes/index";
export { EPISODE_WAIT_REASONS, explainPendingEpisodes } from "../reasons/index";
export { assertNever } from "../errors/index";
export { FINDING_STATUSES } from "../findings/index";
export { listFindings, summariseActiveFindings } from "../findings/queries/index";
export {
  ALL_NODES,
  type Mode,
  ZMaxConcurrentEpisodes,
  ZMode,
  clearConcurrencyOverride,
  clearModeOverride,
  clearNodeOverrides,
  listConcurrencyOverrides,
  listModeOverrides,
  setConcurrencyOverride,
  setModeOverride,
} from "../modes/index";
export { registerNode } from "../nodes/index";
export { listRegisteredStrategies } from "../actors/definitions/index";
export { listClusterModes } from "../nodes/queries/index";
export { listEpisodeOutputs } from "../outputs/index";
export { type TCursorIdKind, ZKeysetCursorText } from "../paging/index";
export { type Recovery, createRecovery, sweepOrphanedEpisodes } from "../recovery/index";
export {
  type RecoverySweepItem,
  getRecoveryOverview,
  recordRecoverySweep,
} from "../recovery/queries/index";
export {
  type RetentionPolicy,
  type RunPrunerResult,
  describeRetentionPolicy,
  formatRetentionAge,
  listPrunerRuns,
  pruneFinishedEpisodes,
  runPruner,
} from "../retention/index";
export { type FireResult, type TFireRequest, listCheckpoints } from "../runtime/index";
export { SqlParams } from "../scope/index";
export { TELEMETRY_EVENTS, createPrometheusExporter } from "../telemetry/index";
export {
  ACTOR_CHART_RANGE_NAMES,
  type ActorChartRange,
  readActorCharts,
  readTelemetrySeries,
} from "../telemetry/queries/index";
export { SPAN_ATTRIBUTES, SPAN_NAMES } from "../tracing/index";
export { TRIGGER_REQUEST_STATUSES, startRequestedEpisodes } from "../deferred/index";
export { listTriggerRequests } from "./deferred/index";
export {
  CATCH_UP_POLICIES,
  type FireTriggerResult,
  type InspectTriggerResult,
  type ListTriggersResult,
  type PauseTriggerResult,
  type TriggerInterfaceResult,
  TriggerRegistry,
  TriggerScheduler,
  type WorkflowStarter,
  ZTenantId,
  describeTriggerInterface,
  envOfTenant,
  fireTrigger,
  inspectTrigger,
  listTriggers,
  pauseTrigger,
  resumeTrigger,
  tenantIdOf,
  triggerExtension,
} from "../triggers/index";
export {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  USER_ROLES,
  type UserRole,
  ZUserEmail,
  createUser,
  ensureUser,
  findUserCredentials,
  insertUser,
  listUsers,
  passwordProblem,
  setUserDisabled,
  setUserRole,
} from "./users/index";
export {
  WORKFLOW_INSTANCE_STATUSES,
  WorkflowEngine,
  WorkflowRegistry,
  loadWorkflowInstance,
  parseStepStates,
  resumeWorkflowInstance,
  retryWorkflowStep,
} from "../workflows/index";
export { workflowExtension } from "../nodes/index";
export { getWorkflowGraph, listWorkflowInstances } from "../workflows/queries/index";
// What the console's own node, settings and fixtures are written with. Also on the root and
// `/worker`, but those faces bring the worker's start-up (embedded PostgreSQL included) into the
// Next.js build, so the console takes them from here.
export { type ActorDefinition, defineActor, done } from "../actors/index";
export { createCycliumNode, type CycliumNode } from "../nodes/index";
export {
  tracingExporterFromEnv,
  ZCycliumEnv,
  ZDatabaseUrl,
  type TTracingEnv,
} from "../config/index";
export type { Queryable } from "../db/index";
export { loadDeployment, type Deployment } from "../deployment/index";
export { CycliumError, isCycliumError, type CycliumErrorCode } from "../errors/index";
export { silentLogger, Telemetry, type Logger } from "../telemetry/index";
export { defineTrigger } from "../triggers/index";
export { defineWorkflow } from "../workflows/index";
// Durable waits (SPEC section 17): what a waiting episode waits for, and an operator's signal.
export {
  deliverSignal,
  describeSignals,
  loadEpisodeWait,
  sendSignal,
  type DeclaredSignal,
  type EpisodeWaitView,
  type SendSignalResult,
} from "../waits/index";
