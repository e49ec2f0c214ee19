// Entry point of the worker processes the multi-process tests spawn: the real worker (same env
// validation, node wiring, HTTP and signal handling) with the test actors added to the demo ones.
import { demoActors, demoStrategies } from "../demo/index";
import { readWorkerEnv } from "../env";
import { runWorker } from "../run-worker";
import { testActors, testStrategies } from "./test-actors";

await runWorker({
  env: readWorkerEnv(),
  actors: [...demoActors, ...testActors],
  strategies: { ...demoStrategies, ...testStrategies },
  jitterMs: 0,
  version: "test",
});
