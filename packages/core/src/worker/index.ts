// The worker front door (SPEC section 13): runWorker({ deployment, ...settings }) with the
// SPEC's defaults, and the environment schema a worker's main.ts reads them from.
export { runWorker, type RunningWorker } from "./run-worker";
export type {
  RunWorkerOptions,
  RunWorkerSettings,
  WorkerEnvironmentSource,
} from "./run-worker-settings";
export {
  readWorkerEnv,
  resolveWorkerSettings,
  workerSettingsFromEnv,
  ZWorkerEnv,
  type TWorkerEnv,
} from "./env";
export {
  startNodeHttpServer,
  type NodeHttpServer,
  type NodeHttpServerOptions,
} from "./node-http-server";
