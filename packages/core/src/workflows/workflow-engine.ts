import { announce, LIFECYCLE_TOPICS, type Bus, type Unsubscribe } from "../bus/index";
import type { Queryable } from "../db/index";
import { CycliumError } from "../errors/index";
import type { NodeScope } from "../scope/index";
import { silentLogger, type Logger, type Telemetry } from "../telemetry/index";
import {
  applyEpisodeEnd,
  cancelInstance,
  initialTransition,
  recordEpisodeId,
  resumePausedSteps,
  retryPausedStep,
  startDueRetries,
  type WorkflowTransition,
} from "./advance-workflow";
import {
  EPISODE_CANCELLED_TOPIC,
  EPISODE_COMPLETED_TOPIC,
  EPISODE_FAILED_TOPIC,
  ZEpisodeEvent,
} from "../episodes/episode-events";
import { findDueWorkflowRetries } from "./find-due-workflow-retries";
import { findUnstartedWorkflowSteps } from "./find-unstarted-workflow-steps";
import { insertWorkflowInstance } from "./insert-workflow-instance";
import { loadWorkflowInstance } from "./load-workflow-instance";
import type { WorkflowInstanceStatus } from "./step-state";
import {
  stepIdempotencyKey,
  type EpisodeCanceller,
  type StepStarter,
  type StepTiming,
} from "./step-starter";
import { transitionInstance, type ComputeTransition } from "./transition-instance";
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
  /** Where `cyclium.workflow.{started,completed,failed}` are emitted. */
  telemetry?: Telemetry | undefined;
  cancelEpisode?: EpisodeCanceller | undefined;
  logger?: Logger | undefined;
  now?: (() => Date) | undefined;
}

export interface StartWorkflowOptions {
  workflow: string;
  context?: Record<string, unknown> | undefined;
  triggerName?: string | null | undefined;
  firingId?: string | null | undefined;
  /** When its root steps may start, and their priority; later steps start when due. */
  timing?: StepTiming | undefined;
}

export interface StartedWorkflow {
  instanceId: string;
  workflow: string;
  status: WorkflowInstanceStatus;
}

/** Where the side effects of a transition left the instance, and the first start error. */
interface Settled {
  status: WorkflowInstanceStatus;
  startError: Error | null;
}

/** `timing` only while the instance's root steps start (a delayed fire). */
type InstanceRef = Pick<WorkflowInstanceRow, "id" | "context"> & { timing?: StepTiming };

/**
 * Runs workflow instances: starts the steps whose dependencies are done and advances on
 * `episode.completed` / `episode.failed`. Every node runs an engine and sees every event; the
 * compare-and-set in `transitionInstance` lets one of them apply each transition, and only that
 * one starts the next steps.
 */
/**
 * An operator's command on an instance, told apart by `kind`: applied, or the instance was not in
 * the state it applies to (or not found); the compare-and-set makes a second click the latter.
 */
export type ResumeInstanceResult = { kind: "resumed" } | { kind: "not_blocked" };
export type RetryStepResult = { kind: "retried" } | { kind: "not_paused" };
export type CancelInstanceResult = { kind: "cancelled" } | { kind: "not_active" };

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

  /**
   * Creates an instance and starts its root steps. When a root step cannot even be started and
   * that fails the instance, the start error is thrown (a trigger's primary propagates it); the
   * failed instance stays recorded.
   */
  async startWorkflow(options: StartWorkflowOptions): Promise<StartedWorkflow> {
    const definition = this.#options.registry.get(options.workflow);
    if (!definition) {
      throw new CycliumError("not_found", `Unknown workflow "${options.workflow}".`);
    }
    const context = options.context ?? {};
    const transition = initialTransition(definition, this.#now());
    const instanceId = await insertWorkflowInstance(
      {
        workflowName: definition.name,
        status: transition.status,
        steps: transition.steps,
        context,
        triggerName: options.triggerName ?? null,
        firingId: options.firingId ?? null,
        sourceStack: this.#options.scope.stack,
        sourceEnv: this.#options.scope.env,
      },
      this.#options.db,
    );
    // Only the node that inserted the instance announces it; the rest never see this branch.
    this.#announce("started", definition.name, instanceId, {
      trigger_name: options.triggerName ?? null,
    });
    const settled = await this.#afterTransition(
      definition,
      {
        id: instanceId,
        context,
        ...(options.timing === undefined ? {} : { timing: options.timing }),
      },
      transition,
    );
    if (settled.status === "failed" && settled.startError) throw settled.startError;
    return { instanceId, workflow: definition.name, status: settled.status };
  }

  /** Applies one `episode.*` event payload; false when it changed nothing. */
  async handleEpisodeEvent(payload: unknown): Promise<boolean> {
    const parsed = ZEpisodeEvent.safeParse(payload);
    if (!parsed.success) {
      this.#logger.warn({ issues: parsed.error.issues }, "ignoring malformed episode event");
      return false;
    }
    const event = parsed.data;
    const step = event.workflowStep;
    if (!event.workflowInstanceId || !step) return false;
    const end = {
      step,
      episodeId: event.episodeId,
      status: event.status,
      error: event.errorMessage ?? event.errorClass ?? null,
    };
    return (
      (await this.#mutate(event.workflowInstanceId, (definition, snapshot, now) =>
        applyEpisodeEnd(definition, snapshot, end, now),
      )) !== null
    );
  }

  /** Starts the next attempt of every `retrying` step of `instanceId` whose backoff passed. */
  async startDueRetries(instanceId: string): Promise<boolean> {
    return (await this.#mutate(instanceId, startDueRetries)) !== null;
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

  /**
   * Fires the steps a stopped engine left `running` without an episode (it committed their
   * transition, then died before firing them), once their instance has been untouched for
   * `olderThanMs`; run with the recovery cycle. The step's idempotency key makes a start that
   * did happen dedupe instead of running twice. Returns the steps fired.
   */
  async startUnstartedSteps(options: { olderThanMs: number }): Promise<number> {
    const steps = await findUnstartedWorkflowSteps(
      { scope: this.#options.scope, olderThanMs: options.olderThanMs, limit: 1_000 },
      this.#options.db,
    );
    let fired = 0;
    for (const { instanceId, step, attempt } of steps) {
      const row = await loadWorkflowInstance(instanceId, this.#options.db);
      const definition = row && this.#options.registry.get(row.workflow_name);
      if (!row || !definition) continue;
      const state = parseStepStates(row.step_states)[step];
      if (state?.status !== "running" || state.attempt !== attempt || state.episodeId !== null) {
        continue;
      }
      this.#logger.warn(
        { instance_id: instanceId, step, attempt },
        "firing a workflow step whose start was lost with its node",
      );
      await this.#startStep(definition, row, step, attempt);
      fired++;
    }
    return fired;
  }

  /** An operator's retry of a step paused by the `pause` failure policy. */
  async retryStep(options: { instanceId: string; step: string }): Promise<RetryStepResult> {
    const applied = await this.#mutate(options.instanceId, (definition, snapshot, now) =>
      retryPausedStep(definition, snapshot, options.step, now),
    );
    return applied === null ? { kind: "not_paused" } : { kind: "retried" };
  }

  /** An operator's resume of a `blocked` instance: paused steps accepted, dependants start. */
  async resume(options: { instanceId: string }): Promise<ResumeInstanceResult> {
    const applied = await this.#mutate(options.instanceId, resumePausedSteps);
    return applied === null ? { kind: "not_blocked" } : { kind: "resumed" };
  }

  async cancel(options: { instanceId: string }): Promise<CancelInstanceResult> {
    const applied = await this.#mutate(options.instanceId, (_definition, snapshot, now) =>
      cancelInstance(snapshot, now),
    );
    return applied === null ? { kind: "not_active" } : { kind: "cancelled" };
  }

  /** Applies `compute` to the instance and runs its side effects; null when nothing changed. */
  async #mutate(instanceId: string, compute: ComputeTransition): Promise<Settled | null> {
    const applied = await transitionInstance(
      {
        db: this.#options.db,
        registry: this.#options.registry,
        scope: this.#options.scope,
        instanceId,
        now: this.#now,
      },
      compute,
    );
    if (applied === "unregistered") {
      this.#logger.warn(
        { instance_id: instanceId },
        "workflow not registered on this node; instance left alone",
      );
    }
    if (typeof applied === "string") return null;
    // The compare-and-set let exactly one node apply this transition: that node announces it.
    const { status } = applied.transition;
    if (status === "failed") {
      // warn (issue 31): a failed workflow was only an announcement, nothing above info in the
      // log, so a trigger re-firing a failing workflow went unseen.
      this.#logger.warn(
        {
          workflow: applied.definition.name,
          instance_id: instanceId,
          trigger: applied.row.trigger_name,
          firing_id: applied.row.firing_id,
          error: applied.transition.errorMessage ?? applied.row.error_message,
        },
        "workflow failed",
      );
    }
    if (status === "done" || status === "failed") {
      this.#announce(
        status === "done" ? "completed" : "failed",
        applied.definition.name,
        instanceId,
      );
    }
    return this.#afterTransition(applied.definition, applied.row, applied.transition);
  }

  #announce(
    what: "started" | "completed" | "failed",
    workflow: string,
    instanceId: string,
    extra: Record<string, string | null> = {},
  ): void {
    const topics = {
      started: LIFECYCLE_TOPICS.workflowStarted,
      completed: LIFECYCLE_TOPICS.workflowCompleted,
      failed: LIFECYCLE_TOPICS.workflowFailed,
    } as const;
    const { bus, telemetry } = this.#options;
    void announce({ bus, telemetry, logger: this.#logger }, topics[what], {
      instance_id: instanceId,
      workflow,
      env: this.#options.scope.env,
      ...extra,
    });
  }

  async #afterTransition(
    definition: WorkflowDefinition,
    instance: InstanceRef,
    transition: WorkflowTransition,
  ): Promise<Settled> {
    for (const episodeId of transition.cancelEpisodes) {
      await this.#options.cancelEpisode?.(episodeId).catch((error: unknown) => {
        this.#logger.warn({ err: error, episode_id: episodeId }, "could not cancel step episode");
      });
    }
    this.#scheduleRetries(instance.id, transition);
    let settled: Settled = { status: transition.status, startError: null };
    for (const { step, attempt } of transition.start) {
      // A step whose start failed may have aborted the instance: start nothing more then.
      if (settled.status === "failed" || settled.status === "cancelled") break;
      const next = await this.#startStep(definition, instance, step, attempt);
      if (next)
        settled = { status: next.status, startError: settled.startError ?? next.startError };
    }
    return settled;
  }

  async #startStep(
    definition: WorkflowDefinition,
    instance: InstanceRef,
    stepName: string,
    attempt: number,
  ): Promise<Settled | null> {
    const step = definition.steps.find((candidate) => candidate.name === stepName);
    if (!step) return null;
    let episodeId: string | null;
    try {
      const started = await this.#options.startStep({
        actorId: step.actor,
        expectationId: step.expectation,
        triggerType: "workflow",
        input: step.input ? step.input(instance.context) : instance.context,
        idempotencyKey: stepIdempotencyKey(instance.id, stepName, attempt),
        workflowInstanceId: instance.id,
        workflowStep: stepName,
        ...instance.timing,
      });
      switch (started.kind) {
        case "created":
          episodeId = started.episodeId;
          break;
        case "deduped":
          episodeId = null;
          break;
        case "dropped":
          // The step's actor drops overflow and its queue is full: the step fails to start.
          throw new Error(
            `${step.actor}'s queue is full and it drops overflow (${started.reason})`,
          );
      }
    } catch (error) {
      this.#logger.error(
        { err: error, instance_id: instance.id, step: stepName },
        "could not start workflow step",
      );
      const startError = error instanceof Error ? error : new Error(String(error));
      const failed = await this.#mutate(instance.id, (current, snapshot, now) =>
        snapshot.steps[stepName]?.attempt === attempt
          ? applyEpisodeEnd(
              current,
              snapshot,
              { step: stepName, episodeId: null, status: "failed", error: startError.message },
              now,
            )
          : null,
      );
      return failed && { ...failed, startError: failed.startError ?? startError };
    }
    if (episodeId === null) return null;
    const id = episodeId;
    return this.#mutate(instance.id, (_definition, snapshot) =>
      recordEpisodeId(snapshot, stepName, attempt, id),
    );
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
