// What REST (and the console) need from the web node's runtime to fire a trigger: the workflow
// engine's starter and the registries. The trigger_only runtime registers them when it starts
// (instrumentation); until then list/inspect/pause/resume work from the database alone and fire
// answers 503.
import type { Telemetry } from "@cyclium/core/telemetry";
import type { TriggerRegistry, WorkflowStarter } from "@cyclium/core/triggers";
import type { WorkflowRegistry } from "@cyclium/core/workflows";

export interface TTriggerServices {
  startWorkflow: WorkflowStarter;
  triggers?: TriggerRegistry | undefined;
  workflows?: WorkflowRegistry | undefined;
  telemetry?: Telemetry | undefined;
}

const globalForServices = globalThis as typeof globalThis & {
  cycliumTriggerServices?: TTriggerServices;
};

export function registerTriggerServices(services: TTriggerServices | undefined): void {
  globalForServices.cycliumTriggerServices = services;
}

export function getTriggerServices(): TTriggerServices | null {
  return globalForServices.cycliumTriggerServices ?? null;
}
