import { randomUUID } from "node:crypto";
import type { Queryable } from "../db/index";
import { assertNever } from "../errors/index";
import { canonicalHash } from "../episodes/index";
import { defaultTelemetry, silentLogger, type Logger, type Telemetry } from "../telemetry/index";
import type { WorkflowRegistry } from "../workflows/index";
import { insertTriggerFiring } from "./insert-trigger-firing";
import { recordFiringOutcomes } from "./record-firing-outcomes";
import { fanOutTargets } from "./subscribers-of";
import type { TriggerContext } from "./trigger-definition";
import type { FiringOutcome, FiringSource } from "./trigger-firing-row";
import { inSpan, SPAN_ATTRIBUTES, SPAN_NAMES } from "../tracing/index";
import type { StepTiming } from "../workflows/index";

/** Starts one workflow for a firing. The workflow engine's `startWorkflow` satisfies it. */
export type WorkflowStarter = (options: {
  workflow: string;
  context: Record<string, unknown>;
  triggerName: string;
  firingId: string;
  /** A delayed operator fire (SPEC section 16): when the root steps may start, at what priority. */
  timing?: StepTiming | undefined;
}) => Promise<{ instanceId: string }>;

export interface FiringTrigger {
  id: string;
  name: string;
  env: string | null;
  /** The primary workflow. */
  workflow: string;
  fanOut: boolean;
  allowConcurrent: boolean;
  /** A cron trigger's rule, added to its firings' context as Cloacina does. */
  schedule?: { expression: string; timezone: string } | null | undefined;
}

export interface FanOutFiringOptions {
  db: Queryable;
  trigger: FiringTrigger;
  source: FiringSource;
  /** The fire's own context (poll result, manual body); the scheduled window for cron. */
  context: TriggerContext | undefined;
  scheduledTime: Date | null;
  firedBy: string;
  startWorkflow: WorkflowStarter;
  /** Passed to every workflow the firing starts (an operator's delayed fire). */
  timing?: StepTiming | undefined;
  workflows?: WorkflowRegistry | undefined;
  telemetry?: Telemetry | undefined;
  logger?: Logger | undefined;
}

/** One started workflow: Cloacina's `{workflow_name, execution_id}`, and ours beside them. */
export interface Execution {
  workflow_name: string;
  execution_id: string;
  workflow: string;
  instance_id: string;
  primary: boolean;
}

/**
 * A fire's result, told apart by `kind`: `deduped`, the same fire (context hash, or a cron
 * window's instant) is already recorded and still open; `fired`, the firing and its workflows.
 */
export type FanOutResult =
  | { kind: "deduped" }
  | {
      kind: "fired";
      firingId: string;
      executions: Execution[];
      outcomes: FiringOutcome[];
      /** The primary's error: the caller propagates it (SPEC section 7). */
      primaryError: Error | null;
    };

/**
 * One fire of a trigger (SPEC section 7): dedupe on the context hash, record the firing, start
 * the primary and then every subscriber. The primary's outcome is the firing's; a secondary's
 * failure is logged and recorded in `outcomes` and touches nothing else.
 */
export function fanOutFiring(options: FanOutFiringOptions): Promise<FanOutResult> {
  const attributes = {
    [SPAN_ATTRIBUTES.trigger]: options.trigger.name,
    "cyclium.trigger.source": options.source,
  };
  return inSpan(SPAN_NAMES.triggerFiring, { attributes }, async (span) => {
    const result = await fanOut(options);
    span.setAttribute(SPAN_ATTRIBUTES.fanOut, result.kind === "fired" ? result.outcomes.length : 0);
    return result;
  });
}

async function fanOut(options: FanOutFiringOptions): Promise<FanOutResult> {
  const { trigger } = options;
  const logger = options.logger ?? silentLogger;
  const telemetry = options.telemetry ?? defaultTelemetry;
  const own = options.context ?? {};
  // Cron: the scheduled instant is the fire. Otherwise the context, so an unchanged poll
  // condition (no context hashes to the hash of {}) does not fire again while it is open.
  let contextHash = canonicalHash(
    (options.source === "cron" || options.source === "interval") && options.scheduledTime
      ? { scheduled_time: options.scheduledTime.toISOString() }
      : own,
  );
  // An operator's fire is never deduplicated (Cloacina's rule): asking twice runs twice.
  if (trigger.allowConcurrent || options.source === "manual") {
    contextHash = `${contextHash}:${randomUUID()}`;
  }
  // Added after hashing: they differ on every fire and would defeat the dedupe. The keys are
  // Cloacina's, so a workflow written for it reads the same context here.
  const context: Record<string, unknown> = {
    ...own,
    scheduled_time: options.scheduledTime?.toISOString() ?? null,
    trigger_name: trigger.name,
    triggered_at: new Date().toISOString(),
    ...sourceContext(options),
  };

  const firingId = await insertTriggerFiring(
    {
      triggerId: trigger.id,
      triggerName: trigger.name,
      env: trigger.env,
      contextHash,
      context,
      scheduledTime: options.scheduledTime,
      source: options.source,
      firedBy: options.firedBy,
    },
    options.db,
  );
  if (firingId === null) {
    telemetry.emit(
      "cyclium.trigger.skipped",
      { count: 1 },
      {
        trigger: trigger.name,
        source: options.source,
        reason: "duplicate",
      },
    );
    return { kind: "deduped" };
  }

  const outcomes: FiringOutcome[] = [];
  let primaryFailure: { error: Error; message: string } | null = null;
  for (const workflow of fanOutTargets(trigger, options.workflows)) {
    const primary = workflow === trigger.workflow;
    try {
      const { instanceId } = await options.startWorkflow({
        workflow,
        context,
        triggerName: trigger.name,
        firingId,
        ...(options.timing === undefined ? {} : { timing: options.timing }),
      });
      outcomes.push({ workflow, primary, status: "started", instance_id: instanceId, error: null });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcomes.push({ workflow, primary, status: "failed", instance_id: null, error: message });
      if (primary) {
        primaryFailure = { error: error instanceof Error ? error : new Error(message), message };
      } else {
        logger.warn(
          { err: error, trigger: trigger.name, workflow, firing_id: firingId },
          "secondary trigger subscriber failed; the primary is unaffected",
        );
      }
    }
  }

  await recordFiringOutcomes(
    { firingId, outcomes, primaryError: primaryFailure?.message ?? null },
    options.db,
  );
  telemetry.emit(
    "cyclium.trigger.fired",
    { count: 1, subscribers: outcomes.length },
    {
      trigger: trigger.name,
      source: options.source,
      primary_failed: primaryFailure !== null,
    },
  );
  return {
    kind: "fired",
    firingId,
    executions: outcomes.flatMap((outcome) =>
      outcome.instance_id === null
        ? []
        : [
            {
              workflow_name: outcome.workflow,
              execution_id: outcome.instance_id,
              workflow: outcome.workflow,
              instance_id: outcome.instance_id,
              primary: outcome.primary,
            },
          ],
    ),
    outcomes,
    primaryError: primaryFailure?.error ?? null,
  };
}

/** Cloacina's keys for where a fire came from: a cron rule, or an operator. */
function sourceContext(options: FanOutFiringOptions): Record<string, unknown> {
  switch (options.source) {
    case "cron":
    case "interval": {
      const schedule = options.trigger.schedule;
      return {
        schedule_id: options.trigger.id,
        schedule_timezone: schedule?.timezone ?? null,
        schedule_expression: schedule?.expression ?? null,
      };
    }
    case "manual":
      return { manual_fire: true };
    case "poll":
      return {};
    default:
      return assertNever(options.source, "firing source");
  }
}
