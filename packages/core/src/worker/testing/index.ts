export {
  deployment as pipelineDeployment,
  PIPELINE_TRIGGER,
  PIPELINE_WORKFLOW,
  SLOW_PIPELINE_WORKFLOW,
} from "./pipeline-deployment";
/** The module's path, for CYCLIUM_DEPLOYMENT in spawned processes. */
export const PIPELINE_DEPLOYMENT_PATH = new URL("./pipeline-deployment.ts", import.meta.url)
  .pathname;
