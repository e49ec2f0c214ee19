// A team's deployment (SPEC section 13): declared once with defineDeployment, loaded by every
// process from the module CYCLIUM_DEPLOYMENT names.
export {
  defineDeployment,
  isDeployment,
  type Deployment,
  type DeploymentInput,
} from "./define-deployment";
export {
  DEFAULT_DEPLOYMENT,
  deploymentFromModule,
  isDeploymentPath,
  loadDeployment,
  type LoadDeploymentOptions,
} from "./load-deployment";
