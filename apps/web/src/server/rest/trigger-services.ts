// What REST needs from the web node's runtime (server/runtime/console-runtime.ts) to fire a
// trigger. Structural, so the endpoints can be tested with a stub starter and no node.
import type { TriggerRegistry, WorkflowStarter, WorkflowRegistry } from "@cyclium/core/console";

export interface TTriggerServices {
  startWorkflow: WorkflowStarter;
  triggers?: TriggerRegistry | undefined;
  workflows?: WorkflowRegistry | undefined;
}
