// @cyclium/core/worker: running a node. runWorker({ deployment, ...settings }) with the SPEC's
// defaults (section 13) and the environment schema a worker's main.ts reads them from; below it,
// the pieces for a process that assembles its own node (the console's trigger-only node, the
// fault suite's workers): createCycliumNode with extensions, telemetry, the deferred runner.
export { runWorker, type RunningWorker } from "./run-worker";
export type {
  RunWorkerOptions,
  RunWorkerSettings,
  WorkerEnvironmentSource,
} from "./run-worker-settings";
export { readWorkerEnv, ZWorkerEnv, type TWorkerEnv } from "./env";
export {
  ZCycliumEnv,
  ZDatabaseUrl,
  tracingExporterFromEnv,
  type TTracingEnv,
} from "../config/index";
export {
  createCycliumNode,
  recoveryExtension,
  type CycliumNode,
  type NodeExtension,
} from "../nodes/index";
export { DeferredRunner } from "../deferred/index";
export { PreparingClient } from "../db/index";
export {
  silentLogger,
  Telemetry,
  type Logger,
  type TelemetryEvent,
  type TelemetryEventName,
} from "../telemetry/index";
// A work-claims adapter (docs/work-claims.md): the contract it implements, the factory a module
// exports for CYCLIUM_WORK_CLAIMS, and the input checks every adapter makes.
export {
  validateClaimInput,
  validateReclaimLimit,
  type AcquireClaimOptions,
  type AcquireClaimResult,
  type AcquireManyClaimsOptions,
  type ClaimFence,
  type CompleteClaimOptions,
  type FailClaimOptions,
  type FailManyClaimsOptions,
  type ReclaimExpiredOptions,
  type ReclaimExpiredResult,
  type ReleaseClaimResult,
  type RenewClaimOptions,
  type RenewClaimResult,
  type WorkClaims,
  type WorkClaimsFactory,
  type WorkClaimsFactoryDeps,
} from "../claims/index";
