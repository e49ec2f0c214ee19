import type { Bus, Unsubscribe } from "../bus/index";
import type { Queryable } from "../db/index";
import { CycliumError } from "../errors/index";
import type { NodeScope } from "../scope/index";
import { silentLogger, type Logger } from "../telemetry/index";
import {
  applyEpisodeEnd,
  cancelInstance,
  initialTransition,
  recordEpisodeId,
  retryPausedStep,
  startDueRetries,
  type WorkflowSnapshot,
  type WorkflowTransition,
} from "./advance-workflow";
import {
  EPISODE_CANCELLED_TOPIC,
  EPISODE_COMPLETED_TOPIC,
  EPISODE_FAILED_TOPIC,
  ZEpisodeEvent,
} from "./episode-event";
import { findDueWorkflowRetries } from "./find-due-workflow-retries";
import { insertWorkflowInstance } from "./insert-workflow-instance";
import { loadWorkflowInstance } from "./load-workflow-instance";
import type { WorkflowInstanceStatus } from "./step-state";
import { stepIdempotencyKey, type EpisodeCanceller, type StepStarter } from "./step-starter";
import { updateWorkflowInstance } from "./update-workflow-instance";
import type { WorkflowDefinition } from "./workflow-definition";
import { parseStepStates, type WorkflowInstanceRow } from "./workflow-instance-row";
import type { WorkflowRegistry } from "./workflow-registry";

export interface WorkflowEngineOptions {
  db: Queryable;
  registry: WorkflowRegistry;
  startStep: StepStarter;
  /** The node's stack and env: stamped on new instances, and the instances it advances. */
  scope: NodeScope;
  bus?: Bus | undefined;
  cancelEpisode?: EpisodeCanceller | undefined;
  logger?: Logger | undefined;
  now?: (() => Date) | undefined;
}

export interface StartWorkflowOptions {
  workflow: string;
  context?: Record<string, unknown> | undefined;
  triggerName?: string | null | undefined;
  firingId?: string | null | undefined;
}

export interface StartedWorkflow {
  instanceId: string;
  workflow: string;
  status: WorkflowInstanceStatus;
}

/** Concurrent transitions of one instance retry their compare-and-set this many times. */
const MAX_CAS_ATTEMPTS = 20;

/**
 * Runs workflow instances: starts the steps whose dependencies are done and advances on
 * `episode.completed` / `episode.failed`. Every node runs an engine and sees every event; the
 * compare-and-set in `updateWorkflowInstance` lets one of them apply each transition, and only
 * that one starts the next steps.
 */
export class WorkflowEngine {
  readonly #options: WorkflowEngineOptions;
  readonly #logger: Logger;
  readonly #now: () => Date;
  readonly #timers = new Set<NodeJS.Timeout>();
  #unsubscribe: Unsubscribe[] = [];

  constructor(options: WorkflowEngineOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? (() => new Date());
  }

  /** Subscribes to episode events on the bus. */
  start(): void {
    const bus = this.#options.bus;
    if (!bus) throw new CycliumError("invalid_config", "WorkflowEngine.start needs a bus.");
    if (this.#unsubscribe.length > 0) return;
    for (const topic of [EPISODE_COMPLETED_TOPIC, EPISODE_FAILED_TOPIC, EPISODE_CANCELLED_TOPIC]) {
      this.#unsubscribe.push(
        bus.subscribe(topic, async (event) => {
          try {
            await this.handleEpisodeEvent(event.payload);
          } catch (error) {
            // The event is not lost for good: reconciliation replays it from the database.
            this.#logger.error({ err: error, topic }, "workflow engine could not handle event");
          }
        }),
      );
    }
  }

  stop(): void {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  async startWorkflow(options: StartWorkflowOptions): Promise<StartedWorkflow> {
    const definition = this.#options.registry.get(options.workflow);
    if (!definition) {
      throw new CycliumError("not_found", `Unknown workflow "${options.workflow}".`);
    }
    const transition = initialTransition(definition, this.#now());
    const instanceId = await insertWorkflowInstance(
      {
        workflowName: definition.name,
        status: transition.status,
        steps: transition.steps,
        context: options.context ?? {},
        triggerName: options.triggerName ?? null,
        firingId: options.firingId ?? null,
        sourceStack: this.#options.scope.stack,
        sourceEnv: this.#options.scope.env,
      },
      this.#options.db,
    );
    const row: Pick<WorkflowInstanceRow, "id" | "context"> = {
      id: instanceId,
      context: options.context ?? {},
    };
    let status = await this.#afterTransition(definition, row, transition);
    if (status === "failed") {
      const reloaded = await loadWorkflowInstance(instanceId, this.#options.db);
      throw new CycliumError(
        "conflict",
        `Workflow "${definition.name}" failed to start: ${reloaded?.error_message ?? "unknown error"}`,
        { details: { instanceId } },
      );
    }
    status = (await loadWorkflowInstance(instanceId, this.#options.db))?.status ?? status;
    return { instanceId, workflow: definition.name, status };
  }

  /** Applies one `episode.*` event payload; false when it changed nothing. */
  async handleEpisodeEvent(payload: unknown): Promise<boolean> {
    const parsed = ZEpisodeEvent.safeParse(payload);
    if (!parsed.success) {
      this.#logger.warn({ issues: parsed.error.issues }, "ignoring malformed episode event");
      return false;
    }
    const event = parsed.data;
    if (!event.workflowInstanceId || !event.workflowStep) return false;
    const step = event.workflowStep;
    const applied = await this.#mutate(event.workflowInstanceId, (definition, snapshot, now) =>
      applyEpisodeEnd(
        definition,
        snapshot,
        {
          step,
          episodeId: event.episodeId,
          status: event.status,
          error: event.errorMessage ?? event.errorClass ?? null,
        },
        now,
      ),
    );
    return applied !== null;
  }

  /** Starts the next attempt of every `retrying` step of `instanceId` whose backoff passed. */
  async startDueRetries(instanceId: string): Promise<boolean> {
    const applied = await this.#mutate(instanceId, startDueRetries);
    return applied !== null;
  }

  /** Due retries of every instance in this engine's scope; run with the recovery cycle. */
  async startAllDueRetries(): Promise<number> {
    const ids = await findDueWorkflowRetries(
      { scope: this.#options.scope, limit: 1_000 },
      this.#options.db,
    );
    let started = 0;
    for (const id of ids) if (await this.startDueRetries(id)) started++;
    return started;
  }

  /** An operator's retry of a step paused by the `pause` failure policy. */
  async retryStep(options: { instanceId: string; step: string }): Promise<boolean> {
    const applied = await this.#mutate(options.instanceId, (definition, snapshot, now) =>
      retryPausedStep(definition, snapshot, options.step, now),
    );
    return applied !== null;
  }

  async cancel(options: { instanceId: string }): Promise<boolean> {
    const applied = await this.#mutate(options.instanceId, (_definition, snapshot, now) =>
      cancelInstance(snapshot, now),
    );
    return applied !== null;
  }

  /**
   * Load, compute, compare-and-set; on a lost race, again from the newer state. Instances of
   * another stack or env are left to that world's engines: starting their steps here would stamp
   * this node's scope on the episodes.
   */
  async #mutate(
    instanceId: string,
    compute: (
      definition: WorkflowDefinition,
      snapshot: WorkflowSnapshot,
      now: Date,
    ) => WorkflowTransition | null,
  ): Promise<WorkflowInstanceStatus | null> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const row = await loadWorkflowInstance(instanceId, this.#options.db);
      if (!row || !this.#inScope(row)) return null;
      const definition = this.#options.registry.get(row.workflow_name);
      if (!definition) {
        this.#logger.warn(
          { instance_id: instanceId, workflow: row.workflow_name },
          "workflow not registered on this node; instance left alone",
        );
        return null;
      }
      const snapshot = { status: row.status, steps: parseStepStates(row.step_states) };
      const transition = compute(definition, snapshot, this.#now());
      if (!transition) return null;
      const applied = await updateWorkflowInstance(
        {
          id: instanceId,
          expectedStatus: row.status,
          expectedSteps: row.step_states,
          status: transition.status,
          steps: transition.steps,
          errorMessage: transition.errorMessage,
        },
        this.#options.db,
      );
      if (applied) return this.#afterTransition(definition, row, transition);
    }
    throw new Error(
      `workflow instance ${instanceId} kept changing under ${MAX_CAS_ATTEMPTS} tries`,
    );
  }

  #inScope(row: WorkflowInstanceRow): boolean {
    const { stack, env } = this.#options.scope;
    if (row.source_env !== env) return false;
    return stack === null || row.source_stack === null || row.source_stack === stack;
  }

  /** Side effects of an applied transition; returns the instance status they end in. */
  async #afterTransition(
    definition: WorkflowDefinition,
    row: Pick<WorkflowInstanceRow, "id" | "context">,
    transition: WorkflowTransition,
  ): Promise<WorkflowInstanceStatus> {
    for (const episodeId of transition.cancelEpisodes) {
      await this.#options.cancelEpisode?.(episodeId).catch((error: unknown) => {
        this.#logger.warn({ err: error, episode_id: episodeId }, "could not cancel step episode");
      });
    }
    this.#scheduleRetries(row.id, transition);
    let status = transition.status;
    for (const { step, attempt } of transition.start) {
      // A step whose start failed may have aborted the instance: start nothing more then.
      if (status === "failed" || status === "cancelled") break;
      status = (await this.#startStep(definition, row, step, attempt)) ?? status;
    }
    return status;
  }

  async #startStep(
    definition: WorkflowDefinition,
    row: Pick<WorkflowInstanceRow, "id" | "context">,
    stepName: string,
    attempt: number,
  ): Promise<WorkflowInstanceStatus | null> {
    const step = definition.steps.find((candidate) => candidate.name === stepName);
    if (!step) return null;
    try {
      const started = await this.#options.startStep({
        actorId: step.actor,
        expectationId: step.expectation,
        triggerType: "workflow",
        input: step.input ? step.input(row.context) : row.context,
        idempotencyKey: stepIdempotencyKey(row.id, stepName, attempt),
        workflowInstanceId: row.id,
        workflowStep: stepName,
      });
      if (!("episodeId" in started)) return null;
      return await this.#mutate(row.id, (_definition, snapshot) =>
        recordEpisodeId(snapshot, stepName, attempt, started.episodeId),
      );
    } catch (error) {
      this.#logger.error(
        { err: error, instance_id: row.id, step: stepName },
        "could not start workflow step",
      );
      const message = error instanceof Error ? error.message : String(error);
      return this.#mutate(row.id, (current, snapshot, now) =>
        snapshot.steps[stepName]?.attempt === attempt
          ? applyEpisodeEnd(
              current,
              snapshot,
              {
                step: stepName,
                episodeId: null,
                status: "failed",
                error: `start failed: ${message}`,
              },
              now,
            )
          : null,
      );
    }
  }

  #scheduleRetries(instanceId: string, transition: WorkflowTransition): void {
    const now = this.#now().getTime();
    for (const state of Object.values(transition.steps)) {
      if (state.status !== "retrying" || state.retryAt === null) continue;
      const timer = setTimeout(
        () => {
          this.#timers.delete(timer);
          this.startDueRetries(instanceId).catch((error: unknown) => {
            this.#logger.error({ err: error, instance_id: instanceId }, "workflow retry failed");
          });
        },
        Math.max(0, Date.parse(state.retryAt) - now),
      );
      timer.unref();
      this.#timers.add(timer);
    }
  }
}
