// Entry point of the worker processes the multi-process tests spawn: the real worker (same env
// validation, node wiring, HTTP and signal handling) with the test actors added to the
// deployment CYCLIUM_DEPLOYMENT names.
import { defineDeployment, loadDeployment } from "@cyclium/core";
import { readWorkerEnv, runWorker } from "@cyclium/core/worker";
import { testActors, testStrategies } from "./test-actors";

const env = readWorkerEnv();
const base = await loadDeployment(env.CYCLIUM_DEPLOYMENT);
const deployment = defineDeployment({
  actors: [...base.actors, ...testActors],
  strategies: { ...base.strategies, ...testStrategies },
  workflows: base.workflows.list(),
  triggers: base.triggers.list(),
});
await runWorker({ deployment, jitterMs: 0, version: "test" });
