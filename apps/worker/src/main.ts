// A Cyclium worker: the deployment CYCLIUM_DEPLOYMENT names (default @cyclium/demo), run by a
// full-mode node. Configuration comes only from the environment (SPEC section 9), which runWorker
// reads itself; a bad value or deployment exits with code 2 naming it.
import { loadDeployment, isCycliumError } from "@cyclium/core";
import { readWorkerEnv, runWorker } from "@cyclium/core/worker";
import packageJson from "../package.json" with { type: "json" };
import { startTracing } from "./tracing";

const env = readWorkerEnv();
// Before the node starts, so its first spans already go to the provider.
const tracing = startTracing(env, { name: "cyclium-worker", version: packageJson.version });
const deployment = await loadDeployment(env.CYCLIUM_DEPLOYMENT).catch((error: unknown) => {
  if (!isCycliumError(error, "invalid_config")) throw error;
  console.error(error.message);
  process.exit(2);
});
await runWorker({
  deployment,
  version: packageJson.version,
  ...(tracing === undefined ? {} : { extensions: [tracing] }),
});
