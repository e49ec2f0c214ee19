import type {
  WorkClaims,
  WorkClaimsMode,
  Deployment,
  Logger,
  Telemetry,
} from "@cyclium/core/console";
import {
  createCycliumNode,
  type CycliumNode,
  createRecovery,
  triggerExtension,
  workflowExtension,
} from "@cyclium/core/console";
import type pg from "pg";
import type { TConsoleRuntime } from "./console-runtime";

export interface TConsoleNodeOptions {
  db: pg.Pool;
  databaseUrl: string;
  nodeIdentity: string;
  env: string | null;
  stack: string | null;
  /** From loadWorkClaims (CYCLIUM_WORK_CLAIMS), or a built-in mode's name. */
  workClaims: WorkClaims | WorkClaimsMode;
  leaseSeconds: number;
  /** What CYCLIUM_DEPLOYMENT names: the same actors, workflows and triggers as the workers. */
  deployment: Deployment;
  telemetry: Telemetry;
  logger: Logger;
  /** Dedupe jitter bound (SPEC section 3); tests set 0. */
  jitterMs?: number;
  telemetryRollups?: boolean;
}

/**
 * The console's Cyclium node, started, and the runtime its procedures use (SPEC section 1):
 * the deployment's actors in `trigger_only` mode, so a fire creates the pending episode plus a
 * deferred trigger request a full-mode worker executes. The trigger scheduler runs here too, as
 * on every worker (one firing per window cluster-wide); the workflow engine here starts instances
 * and leaves their transitions to the workers, so nothing depends on the console being up.
 */
export async function createConsoleNode(
  options: TConsoleNodeOptions,
): Promise<{ node: CycliumNode; runtime: TConsoleRuntime }> {
  const { db, telemetry, logger } = options;
  const { deployment } = options;
  const workflows = workflowExtension(deployment.workflows);
  const node = await createCycliumNode({
    db,
    databaseUrl: options.databaseUrl,
    kind: "web",
    mode: "trigger_only",
    nodeIdentity: options.nodeIdentity,
    stack: options.stack,
    env: options.env,
    workClaims: options.workClaims,
    leaseSeconds: options.leaseSeconds,
    // Deferred requests are executed by workers; the console never polls for them.
    poller: { enabled: false, intervalMs: 5_000, sourceStack: null },
    actors: deployment.actors,
    strategies: deployment.strategies,
    extensions: [
      workflows,
      triggerExtension({
        triggers: deployment.triggers,
        workflows: deployment.workflows,
        engine: workflows,
      }),
    ],
    logger,
    telemetry,
    ...(options.jitterMs === undefined ? {} : { jitterMs: options.jitterMs }),
    ...(options.telemetryRollups === undefined
      ? {}
      : { telemetryRollups: options.telemetryRollups }),
  });
  await node.start();
  const runtime: TConsoleRuntime = {
    nodeIdentity: options.nodeIdentity,
    registry: node.registry,
    bus: node.bus,
    triggers: deployment.triggers,
    workflows: deployment.workflows,
    fire: (request) => node.host.fire(request),
    deferExisting: (episodes) =>
      node.deferred.deferExisting(episodes.map((episode) => ({ episode }))),
    startWorkflow: async (request) => {
      const engine = workflows.engine;
      if (!engine) throw new Error("the console's workflow engine is not running");
      return engine.startWorkflow(request);
    },
    workflowOperator: {
      resume: (input) => requireEngine(workflows.engine).resume(input),
      retryStep: (input) => requireEngine(workflows.engine).retryStep(input),
    },
    recovery: createRecovery({
      db,
      node: options.nodeIdentity,
      scope: { stack: options.stack, env: options.env },
      claims: node.claims,
      leaseSeconds: options.leaseSeconds,
      registry: node.registry,
      // A trigger-only node runs nothing: its queue hands restarted episodes to workers as
      // trigger requests (ActorHost.takeOwned).
      target: node.host,
      bus: node.bus,
      telemetry,
      logger,
    }),
  };
  return { node, runtime };
}

function requireEngine<T>(engine: T | null | undefined): T {
  if (!engine) throw new Error("the console's workflow engine is not running");
  return engine;
}
