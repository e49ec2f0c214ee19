import "server-only";
import { getPool } from "../db";
import { findConsoleRuntime } from "../runtime/console-runtime";
import { createTriggerEndpoints } from "./trigger-endpoints";

/** The trigger endpoints bound to this process's pool and its Cyclium node (trigger_only). */
export const triggerRoutes = createTriggerEndpoints({
  getDb: getPool,
  getTriggerServices: () => {
    const runtime = findConsoleRuntime();
    return runtime === null
      ? null
      : {
          startWorkflow: runtime.startWorkflow,
          triggers: runtime.triggers,
          workflows: runtime.workflows,
        };
  },
});
