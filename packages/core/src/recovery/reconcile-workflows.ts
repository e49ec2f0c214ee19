import type { Bus } from "../bus/index";
import type { Queryable } from "../db/index";
import { resolveScope, type NodeScope, type ScopeOverrides } from "../scope/index";
import { silentLogger, type Logger } from "../telemetry/index";
import { topicForEpisodeStatus, type TEpisodeEvent } from "../episodes/episode-events";
import { findFinishedWorkflowSteps } from "./find-finished-workflow-steps";

export interface ReconcileWorkflowsConfig {
  db: Queryable;
  bus: Bus;
  scope: NodeScope;
  logger?: Logger | undefined;
}

export interface ReconcileWorkflowsOptions extends ScopeOverrides {
  /** Steps replayed per call at most. */
  limit?: number | undefined;
}

export interface ReconcileWorkflowsResult {
  replayed: number;
}

/**
 * `recovery.reconcileWorkflows` (SPEC section 5): the engine is event-driven and the bus is
 * at-most-once, so an engine that was down or reconnecting when a step's episode ended leaves
 * the step `running` forever. This re-publishes the terminal event of every such step; the
 * engines handle it through their normal path, and a replay of an event that did arrive is a
 * no-op there. Run it after the sweep, whose failed orphans it then covers too.
 */
export async function reconcileWorkflows(
  config: ReconcileWorkflowsConfig,
  options: ReconcileWorkflowsOptions = {},
): Promise<ReconcileWorkflowsResult> {
  const logger = config.logger ?? silentLogger;
  const scope = resolveScope(config.scope, options);
  const steps = await findFinishedWorkflowSteps(
    { scope, limit: options.limit ?? 1_000 },
    config.db,
  );
  let replayed = 0;
  for (const step of steps) {
    const payload: TEpisodeEvent = {
      episodeId: step.episodeId,
      actorId: step.actorId,
      expectationId: step.expectationId,
      workflowInstanceId: step.instanceId,
      workflowStep: step.step,
      status: step.status,
      errorClass: step.errorClass,
      errorMessage: step.errorMessage,
      sourceEnv: step.sourceEnv,
      replayed: true,
    };
    try {
      await config.bus.publish(topicForEpisodeStatus(step.status), payload);
      replayed++;
    } catch (error) {
      logger.error({ err: error, instance_id: step.instanceId, step: step.step }, "replay failed");
    }
  }
  if (replayed > 0) {
    logger.info(
      { replayed, source_stack: scope.stack, source_env: scope.env },
      "workflows reconciled",
    );
  }
  return { replayed };
}
