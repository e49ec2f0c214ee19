// @cyclium/core/testing: what a team's tests (and this repository's other packages' tests) use.
// The conformance suite a work-claims adapter must pass (it runs inside the caller's vitest),
// deployments to spawn workers with, strategies with known behaviour, and seeders for history.
export {
  describeWorkClaimsConformance,
  type InspectedClaim,
  type MakeAdapter,
  type WorkClaimsConformanceOptions,
} from "../claims/testing/index";
export {
  CLIENT_DEPLOYMENT_PATH,
  CLIENT_TRIGGER,
  CLIENT_WORKFLOW,
  clientDeployment,
} from "../client/testing/index";
export {
  PIPELINE_DEPLOYMENT_PATH,
  PIPELINE_TRIGGER,
  PIPELINE_WORKFLOW,
  pipelineDeployment,
  SLOW_PIPELINE_WORKFLOW,
} from "../worker/testing/index";
export {
  createHostFixture,
  noopStrategy,
  stepsStrategy,
  throwingStrategy,
} from "../runtime/testing/index";
export type { ActorHost } from "../runtime/index";
export { seedStaleEpisodes } from "../recovery/testing/index";
export { seedFinishedHistory } from "../retention/testing/index";
export { databaseStepStarter } from "../workflows/testing/index";
