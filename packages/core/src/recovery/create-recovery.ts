import type { Bus } from "../bus/index";
import {
  reconcileWorkflows,
  type ReconcileWorkflowsOptions,
  type ReconcileWorkflowsResult,
} from "./reconcile-workflows";
import {
  sweepOrphanedEpisodes,
  type RecoveryConfig,
  type SweepOptions,
  type SweepResult,
} from "./recovery-sweep";

export interface Recovery {
  sweep(options?: SweepOptions): Promise<SweepResult>;
  reconcileWorkflows(options?: ReconcileWorkflowsOptions): Promise<ReconcileWorkflowsResult>;
}

/**
 * `recovery.sweep(opts)` / `recovery.reconcileWorkflows(opts)` bound to one node's
 * configuration; per-call options override the scope and the policy resolver only.
 */
export function createRecovery(config: RecoveryConfig & { bus?: Bus | undefined }): Recovery {
  return {
    sweep: (options) => sweepOrphanedEpisodes(config, options),
    reconcileWorkflows: (options) => {
      const bus = config.bus;
      if (!bus) return Promise.reject(new Error("reconcileWorkflows needs a bus"));
      return reconcileWorkflows(
        { db: config.db, bus, scope: config.scope, logger: config.logger },
        options,
      );
    },
  };
}
