import { findingsExpiryExtension } from "@cyclium/core/findings";
import { recoveryExtension } from "@cyclium/core/recovery";
import { TriggerRegistry, triggerExtension } from "@cyclium/core/triggers";
import { WorkflowRegistry, workflowExtension } from "@cyclium/core/workflows";
import packageJson from "../package.json" with { type: "json" };
import { createDemoActors, demoStrategies } from "./demo/index";
import { readWorkerEnv } from "./env";
import { runWorker } from "./run-worker";

// A full-mode Cyclium node running the demo actors: executes deferred trigger requests and its
// own triggers. Configuration comes only from the environment (SPEC section 9); a bad value
// exits with code 2 naming the variable.
const env = readWorkerEnv();
// Workflows and fan-out triggers of the deployment; other packages may register theirs here too.
const workflows = new WorkflowRegistry();
const triggers = new TriggerRegistry();
const workflowEngine = workflowExtension(workflows);
await runWorker({
  env,
  actors: createDemoActors({ advisorCron: env.CYCLIUM_DEMO_ADVISOR_CRON }),
  strategies: demoStrategies,
  version: packageJson.version,
  // Started in this order once the node runs, stopped in reverse before episodes drain.
  extensions: [
    workflowEngine,
    triggerExtension({ triggers, workflows, engine: workflowEngine }),
    recoveryExtension({
      delayMs: env.CYCLIUM_RECOVERY_DELAY_MS,
      intervalMs: env.CYCLIUM_RECOVERY_INTERVAL_MS,
      staleAfterMs: env.CYCLIUM_STALE_AFTER_MS,
      workflows: workflowEngine,
    }),
    // Every worker runs it; the work claim lets one sweep at a time cluster-wide (SPEC 12).
    findingsExpiryExtension(),
  ],
});
