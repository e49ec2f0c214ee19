export {
  CLIENT_TRIGGER,
  CLIENT_WORKFLOW,
  deployment as clientDeployment,
} from "./client-deployment";
/** The module's path, for CYCLIUM_DEPLOYMENT in spawned processes. */
export const CLIENT_DEPLOYMENT_PATH = new URL("./client-deployment.ts", import.meta.url).pathname;
