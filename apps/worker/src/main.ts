import packageJson from "../package.json" with { type: "json" };
import { demoActors, demoStrategies } from "./demo/index";
import { readWorkerEnv } from "./env";
import { runWorker } from "./run-worker";

// A full-mode Cyclium node running the demo actors: executes deferred trigger requests and its
// own triggers. Configuration comes only from the environment (SPEC section 9); a bad value
// exits with code 2 naming the variable.
await runWorker({
  env: readWorkerEnv(),
  actors: demoActors,
  strategies: demoStrategies,
  version: packageJson.version,
});
