// The demo deployment (SPEC sections 11 and 13), the default CYCLIUM_DEPLOYMENT: a small
// resources table watched by two actors, a two-step workflow and its cron trigger.
import { createDemoDeployment } from "./demo-deployment";
import { readDemoEnv } from "./env";

const demoEnv = readDemoEnv();
/** What CYCLIUM_DEPLOYMENT=@cyclium/demo loads, with the schedules of the environment. */
export const deployment = createDemoDeployment({
  advisorCron: demoEnv.CYCLIUM_DEMO_ADVISOR_CRON,
  reviewCron: demoEnv.CYCLIUM_DEMO_REVIEW_CRON,
});
export default deployment;

export {
  CAPACITY_REVIEW_TRIGGER,
  CAPACITY_REVIEW_WORKFLOW,
  CAPACITY_SNAPSHOT_WORKFLOW,
  createDemoDeployment,
  type DemoDeploymentOptions,
} from "./demo-deployment";
export {
  createDemoActors,
  DEFAULT_ADVISOR_CRON,
  demoActors,
  demoStrategies,
  resourceAdvisor,
  resourceMonitor,
} from "./demo-actors";
export { advisorStrategy, summarise, type AdvisorSummary } from "./advisor-strategy";
export { LIMIT_BREACH_CLASS, limitBreachKey, limitCheckStrategy } from "./limit-check-strategy";
export {
  LIMIT_APPROVAL_SIGNAL,
  LIMIT_APPROVAL_TIMEOUT_MS,
  limitRaiseStrategy,
  ZLimitApproval,
  type LimitRaiseResult,
  type TLimitApproval,
} from "./limit-raise-strategy";
export { listResources } from "./list-resources";
export { loadResource } from "./load-resource";
export {
  CRITICAL_RATIO,
  NEAR_LIMIT_RATIO,
  RESOURCE_UPDATED_TOPIC,
  ZResource,
  ZResourceUpdated,
  type Resource,
  type TResourceUpdated,
} from "./resource";
export { seedDemoData } from "./seed";
export { updateResourceUsage } from "./update-resource-usage";
