// What REST needs from the web node's runtime (server/runtime/console-runtime.ts) to fire a
// trigger. Structural, so the endpoints can be tested with a stub starter and no node.
import type { TriggerRegistry, WorkflowStarter } from "@cyclium/core/triggers";
import type { WorkflowRegistry } from "@cyclium/core/workflows";

export interface TTriggerServices {
  startWorkflow: WorkflowStarter;
  triggers?: TriggerRegistry | undefined;
  workflows?: WorkflowRegistry | undefined;
}
