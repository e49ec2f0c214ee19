import { defineDeployment, type Deployment, defineTrigger, defineWorkflow } from "@cyclium/core";
import { createDemoActors, demoStrategies } from "./demo-actors";

/** The demo's workflow: a capacity survey, then a fresh limit check of the primary database. */
export const CAPACITY_REVIEW_WORKFLOW = "capacity_review";
/** Subscribes to the review's trigger: a one-step capacity snapshot. */
export const CAPACITY_SNAPSHOT_WORKFLOW = "capacity_snapshot";
/** Its cron trigger, pausable from the console and REST like any trigger. */
export const CAPACITY_REVIEW_TRIGGER = "capacity_review_schedule";

export interface DemoDeploymentOptions {
  /** When `capacity_review_schedule` fires (default every 6 hours). */
  reviewCron?: string | undefined;
  /** The advisor's schedule (default every 5 minutes). */
  advisorCron?: string | undefined;
}

/**
 * The demo (SPEC section 11) as a deployment: two actors over the resources table, a two-step
 * workflow and its cron trigger. Workers run all of it; the console shows and fires it.
 */
export function createDemoDeployment(options: DemoDeploymentOptions = {}): Deployment {
  const review = defineWorkflow({
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
  });
  // A second subscriber: every fire of the trigger fans out to it too (SPEC section 7), so the
  // console's firing history shows a primary and a best-effort secondary outcome.
  const snapshot = defineWorkflow({
    name: CAPACITY_SNAPSHOT_WORKFLOW,
    steps: [{ name: "snapshot", actor: "resource_advisor", expectation: "summarise_capacity" }],
    triggers: [CAPACITY_REVIEW_TRIGGER],
  });
  return defineDeployment({
    actors: createDemoActors(options.advisorCron ? { advisorCron: options.advisorCron } : {}),
    strategies: demoStrategies,
    workflows: [review, snapshot],
    triggers: [
      defineTrigger({
        name: CAPACITY_REVIEW_TRIGGER,
        on: CAPACITY_REVIEW_WORKFLOW,
        cron: options.reviewCron ?? "0 */6 * * *",
        timezone: "UTC",
      }),
    ],
  });
}
