import type {
  ActorRegistry,
  Bus,
  Episode,
  Recovery,
  FireResult,
  TFireRequest,
  TriggerRegistry,
  WorkflowStarter,
  WorkflowEngine,
  WorkflowRegistry,
} from "@cyclium/core/console";
import { CycliumError } from "@cyclium/core/console";
import { getLiveHub } from "../live/live-hub";

/**
 * What the console's procedures need from the Cyclium node this process runs (trigger_only,
 * started by instrumentation.ts): the actors it knows, fires that create the pending episode and
 * its deferred trigger request, and recovery that defers restarted episodes to workers.
 */
export interface TConsoleRuntime {
  nodeIdentity: string;
  registry: ActorRegistry;
  triggers: TriggerRegistry;
  workflows: WorkflowRegistry;
  fire(request: TFireRequest): Promise<FireResult>;
  /** Writes pending trigger requests for episodes that already exist (retry, recovery). */
  deferExisting(episodes: readonly Episode[]): Promise<string[]>;
  startWorkflow: WorkflowStarter;
  /** The operator's resume / retry of a `blocked` instance, run by this node's engine. */
  workflowOperator: Pick<WorkflowEngine, "resume" | "retryStep">;
  recovery: Recovery;
  /** The node's bus, which feeds the console's push channel (server/live); absent in fakes. */
  bus?: Pick<Bus, "subscribe">;
}

// Kept on globalThis: Next may evaluate server modules in more than one bundle (route handlers,
// server components, instrumentation), and they must all see the one node of the process.
const globalForRuntime = globalThis as typeof globalThis & {
  cycliumConsoleRuntime?: TConsoleRuntime | null;
};

export function setConsoleRuntime(runtime: TConsoleRuntime | null): void {
  globalForRuntime.cycliumConsoleRuntime = runtime;
  // Browsers' live streams follow the node: fed while it runs, told to resync when it changes.
  getLiveHub().attach(runtime?.bus ?? null);
}

export function findConsoleRuntime(): TConsoleRuntime | null {
  return globalForRuntime.cycliumConsoleRuntime ?? null;
}

/** For actions that need the node: a clear, expected error while it is starting or failed. */
export function requireConsoleRuntime(): TConsoleRuntime {
  const runtime = findConsoleRuntime();
  if (runtime === null) {
    // `shutdown` maps to 503: the message reaches the operator (an internal error's would not).
    throw new CycliumError(
      "shutdown",
      "The console's Cyclium node is not running yet; try again in a moment (see the server log).",
    );
  }
  return runtime;
}
