// The demo domain (SPEC section 11): a small resources table watched by two actors. Free of
// worker-only imports, so the console can register the same actors in trigger_only mode.
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
