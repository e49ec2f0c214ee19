import type { ActorDefinition, AnyStrategy } from "@cyclium/core/actors";
import { defineTrigger, TriggerRegistry } from "@cyclium/core/triggers";
import { defineWorkflow, WorkflowRegistry } from "@cyclium/core/workflows";
import { createDemoActors, demoStrategies } from "@cyclium/worker/demo";

export interface TConsoleDeployment {
  actors: readonly ActorDefinition[];
  strategies: Record<string, AnyStrategy>;
  workflows: WorkflowRegistry;
  triggers: TriggerRegistry;
}

/** The demo's workflow: a capacity survey, then a fresh limit check of the primary database. */
export const CAPACITY_REVIEW_WORKFLOW = "capacity_review";
/** Subscribes to the review's trigger: a one-step capacity snapshot. */
export const CAPACITY_SNAPSHOT_WORKFLOW = "capacity_snapshot";
/** Its cron trigger, pausable from the console and REST like any trigger. */
export const CAPACITY_REVIEW_TRIGGER = "capacity_review_schedule";

/**
 * What the console runs: the same demo actors as the workers (SPEC section 1: "the same actors
 * in trigger_only mode"), plus the demo workflow and its cron trigger. Triggers fire on any node
 * that defines them (one conditional turn claim per window), so defining it here is enough for
 * the console to start reviews; their steps are deferred to workers like any fire.
 */
export function consoleDeployment(options: {
  reviewCron: string;
  advisorCron?: string;
}): TConsoleDeployment {
  const workflows = new WorkflowRegistry().register(
    defineWorkflow({
      name: CAPACITY_REVIEW_WORKFLOW,
      steps: [
        { name: "survey", actor: "resource_advisor", expectation: "summarise_capacity" },
        {
          name: "check_primary",
          actor: "resource_monitor",
          expectation: "check_resource_limits",
          dependsOn: ["survey"],
          input: () => ({ resourceId: "db-primary" }),
        },
      ],
    }),
    // A second subscriber: every fire of the trigger fans out to it too (SPEC section 7), so
    // the console's firing history shows a primary and a best-effort secondary outcome.
    defineWorkflow({
      name: CAPACITY_SNAPSHOT_WORKFLOW,
      steps: [{ name: "snapshot", actor: "resource_advisor", expectation: "summarise_capacity" }],
      triggers: [CAPACITY_REVIEW_TRIGGER],
    }),
  );
  const triggers = new TriggerRegistry().register(
    defineTrigger({
      name: CAPACITY_REVIEW_TRIGGER,
      on: CAPACITY_REVIEW_WORKFLOW,
      cron: options.reviewCron,
      timezone: "UTC",
    }),
  );
  const actors = createDemoActors(options.advisorCron ? { advisorCron: options.advisorCron } : {});
  return { actors, strategies: demoStrategies, workflows, triggers };
}
