import type { NodeExtension } from "./node-extension";
import type { WorkflowEngine } from "../workflows/index";
import { createRecovery, type Recovery } from "../recovery/create-recovery";
import type { ResolveRecoveryPolicy } from "../actors/recovery-policy";
import { startRecoveryTimer } from "../recovery/recovery-timer";
import { DEFAULT_STALE_AFTER_MS } from "../recovery/recovery-sweep";

export interface RecoveryExtensionOptions {
  delayMs: number;
  intervalMs: number;
  staleAfterMs?: number | undefined;
  resolvePolicy?: ResolveRecoveryPolicy | undefined;
  /**
   * Also start due workflow retries of this node's engine on every run, and the steps a stopped
   * engine committed but never fired.
   */
  workflows?: { readonly engine: WorkflowEngine | undefined } | undefined;
}

export interface RecoveryExtension extends NodeExtension {
  /** The node's recovery once started, for an on-demand sweep. */
  readonly recovery: Recovery | undefined;
}

/**
 * Recovery on a node (SPEC section 5): sweep, then reconcile workflows, `delayMs` after start and
 * every `intervalMs` after that, while the node-wide mode is `full` (a trigger-only or disabled
 * node executes nothing, so it must not take orphans from the nodes that do).
 */
export function recoveryExtension(options: RecoveryExtensionOptions): RecoveryExtension {
  let recovery: Recovery | undefined;
  return {
    name: "recovery",
    get recovery() {
      return recovery;
    },
    start(node) {
      const bound = createRecovery({
        db: node.db,
        node: node.nodeIdentity,
        scope: { stack: node.stack, env: node.env },
        claims: node.claims,
        leaseSeconds: node.leaseSeconds,
        registry: node.registry,
        target: node.host,
        bus: node.bus,
        telemetry: node.telemetry,
        logger: node.logger,
      });
      recovery = bound;
      const timer = startRecoveryTimer({
        delayMs: options.delayMs,
        intervalMs: options.intervalMs,
        logger: node.logger,
        run: async () => {
          if (node.modes.nodeMode !== "full") return;
          await bound.sweep({
            staleAfterMs: options.staleAfterMs,
            resolvePolicy: options.resolvePolicy,
          });
          await bound.reconcileWorkflows();
          const engine = options.workflows?.engine;
          await engine?.startAllDueRetries();
          await engine?.startUnstartedSteps({
            olderThanMs: options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS,
          });
        },
      });
      return { stop: () => timer.stop() };
    },
  };
}
