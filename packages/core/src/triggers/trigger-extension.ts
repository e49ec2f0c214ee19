import { CycliumError } from "../errors/index";
import type { NodeExtension } from "../nodes/index";
import type { WorkflowEngine, WorkflowRegistry } from "../workflows/index";
import type { TriggerRegistry } from "./trigger-registry";
import { TriggerScheduler } from "./trigger-scheduler";

export interface TriggerExtensionOptions {
  triggers: TriggerRegistry;
  workflows: WorkflowRegistry;
  /** The node's workflow extension (list it before this one). */
  engine: { readonly engine: WorkflowEngine | undefined };
  tickMs?: number | undefined;
  /** See `TriggerSchedulerOptions.pollTimeoutMs` (default 30 s). */
  pollTimeoutMs?: number | undefined;
}

export interface TriggerExtension extends NodeExtension {
  readonly scheduler: TriggerScheduler | undefined;
}

/**
 * The trigger scheduler on a node; full and trigger-only nodes both run it. A disabled node
 * fires nothing: its turns are left to the others.
 */
export function triggerExtension(options: TriggerExtensionOptions): TriggerExtension {
  let scheduler: TriggerScheduler | undefined;
  return {
    name: "triggers",
    get scheduler() {
      return scheduler;
    },
    async start(node) {
      const started = new TriggerScheduler({
        db: node.db,
        env: node.env,
        node: node.nodeIdentity,
        triggers: options.triggers,
        workflows: options.workflows,
        startWorkflow: (request) => {
          const engine = options.engine.engine;
          if (!engine) {
            return Promise.reject(
              new CycliumError("invalid_config", "The workflow extension is not started."),
            );
          }
          return engine.startWorkflow(request);
        },
        isEnabled: () => node.modes.nodeMode !== "disabled",
        tickMs: options.tickMs,
        listener: node.listener,
        pollTimeoutMs: options.pollTimeoutMs,
        telemetry: node.telemetry,
        logger: node.logger,
      });
      await started.start();
      scheduler = started;
      return { stop: () => started.stop() };
    },
  };
}
