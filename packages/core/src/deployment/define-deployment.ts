import { z } from "zod";
import type { ActorDefinition, AnyStrategy } from "../actors/index";
import { CycliumError } from "../errors/index";
import { TriggerRegistry, type TriggerDefinition } from "../triggers/index";
import { WorkflowRegistry, type WorkflowDefinition } from "../workflows/index";

/** What `defineDeployment` accepts: a team's actors, strategies, workflows and triggers. */
export interface DeploymentInput<
  A extends readonly ActorDefinition[] = readonly ActorDefinition[],
> {
  actors: A;
  /** By name, for dynamic actors (cyclium_agent_definitions) that name a strategy. */
  strategies?: Readonly<Record<string, AnyStrategy>> | undefined;
  workflows?: readonly WorkflowDefinition[] | undefined;
  triggers?: readonly TriggerDefinition[] | undefined;
}

/**
 * One deployment, declared once (SPEC section 13): every process (worker, console, CLI) loads
 * the same one, so they agree on what exists. The registries are built here, once.
 */
export interface Deployment<A extends readonly ActorDefinition[] = readonly ActorDefinition[]> {
  /** Typed as declared, so `createClient<typeof deployment>` knows each actor's expectations. */
  readonly actors: A;
  readonly strategies: Readonly<Record<string, AnyStrategy>>;
  readonly workflows: WorkflowRegistry;
  readonly triggers: TriggerRegistry;
}

/** Set on every deployment, so a loader recognises one across duplicated module copies. */
export const DEPLOYMENT_BRAND = Symbol.for("cyclium.deployment");

const ZDeploymentInput = z
  .object({
    actors: z.array(
      z.looseObject({
        identifier: z.string(),
        expectations: z.array(z.looseObject({ id: z.string() })),
      }),
    ),
    strategies: z.record(z.string(), z.unknown()).default({}),
    workflows: z
      .array(
        z.looseObject({
          name: z.string(),
          triggers: z.array(z.string()),
          steps: z.array(
            z.looseObject({ name: z.string(), actor: z.string(), expectation: z.string() }),
          ),
        }),
      )
      .default([]),
    triggers: z.array(z.looseObject({ name: z.string(), on: z.string() })).default([]),
  })
  .superRefine((deployment, ctx) => {
    /** Adds `name` to `seen`, with an issue at `path` when it was there already. */
    const declareOnce = (
      seen: Set<string>,
      name: string,
      what: string,
      path: (string | number)[],
    ): void => {
      if (seen.has(name)) {
        ctx.addIssue({ code: "custom", path, message: `${what} "${name}" is declared twice` });
      }
      seen.add(name);
    };
    const actorIds = new Set<string>();
    const expectations = new Map<string, Set<string>>();
    deployment.actors.forEach((actor, index) => {
      declareOnce(actorIds, actor.identifier, "actor", ["actors", index, "identifier"]);
      expectations.set(actor.identifier, new Set(actor.expectations.map((e) => e.id)));
    });
    const workflowNames = new Set<string>();
    deployment.workflows.forEach((workflow, index) => {
      declareOnce(workflowNames, workflow.name, "workflow", ["workflows", index, "name"]);
      workflow.steps.forEach((step, stepIndex) => {
        const known = expectations.get(step.actor);
        if (!known || !known.has(step.expectation)) {
          ctx.addIssue({
            code: "custom",
            path: ["workflows", index, "steps", stepIndex],
            message: known
              ? `step "${step.name}" of workflow "${workflow.name}" names expectation "${step.expectation}", which actor "${step.actor}" does not have`
              : `step "${step.name}" of workflow "${workflow.name}" names unknown actor "${step.actor}"`,
          });
        }
      });
    });
    const triggerNames = new Set<string>();
    deployment.triggers.forEach((trigger, index) => {
      declareOnce(triggerNames, trigger.name, "trigger", ["triggers", index, "name"]);
      if (!workflowNames.has(trigger.on)) {
        ctx.addIssue({
          code: "custom",
          path: ["triggers", index, "on"],
          message: `trigger "${trigger.name}" starts unknown workflow "${trigger.on}"`,
        });
      }
    });
    deployment.workflows.forEach((workflow, index) => {
      for (const trigger of workflow.triggers) {
        if (!triggerNames.has(trigger)) {
          ctx.addIssue({
            code: "custom",
            path: ["workflows", index, "triggers"],
            message: `workflow "${workflow.name}" subscribes to unknown trigger "${trigger}"`,
          });
        }
      }
    });
  });

/**
 * Declares a deployment. Actors, workflows and triggers are each validated by their own
 * `define*`; this checks what only the whole can: unique actor ids, workflow and trigger names,
 * and that every workflow step names an actor and expectation of this deployment and every
 * trigger a workflow of it. A mistake stops the process at load, naming it.
 */
export function defineDeployment<const A extends readonly ActorDefinition[]>(
  input: DeploymentInput<A>,
): Deployment<A> {
  const parsed = ZDeploymentInput.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
    throw new CycliumError("invalid_config", `Invalid deployment:\n${problems.join("\n")}`);
  }
  const workflows = new WorkflowRegistry().register(...(input.workflows ?? []));
  const triggers = new TriggerRegistry().register(...(input.triggers ?? []));
  const deployment: Deployment<A> = {
    actors: Object.freeze([...input.actors]) as unknown as A,
    strategies: Object.freeze({ ...input.strategies }),
    workflows,
    triggers,
  };
  Object.defineProperty(deployment, DEPLOYMENT_BRAND, { value: true });
  return Object.freeze(deployment);
}

export function isDeployment(value: unknown): value is Deployment {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[DEPLOYMENT_BRAND] === true
  );
}
