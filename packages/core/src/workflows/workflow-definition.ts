import { z } from "zod";
import { CycliumError } from "../errors/index";

/** SPEC section 12: what a failed or cancelled step does to its workflow. */
export const WORKFLOW_FAILURE_POLICIES = ["abort", "pause", "retry"] as const;
export type WorkflowFailurePolicy = (typeof WORKFLOW_FAILURE_POLICIES)[number];

/** Workflow, step and trigger names end up in URLs, JSON keys and idempotency keys. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,254}$/;
const ZName = z.string().regex(NAME, "letters, digits, '_', '.', ':' or '-', up to 255");

export type StepInput = (context: Readonly<Record<string, unknown>>) => unknown;

const ZStep = z.object({
  name: ZName,
  actor: z.string().min(1).max(255),
  expectation: z.string().min(1).max(255),
  dependsOn: z.array(ZName).default([]),
  /** The episode input; the instance context when absent. */
  input: z.custom<StepInput>((value) => typeof value === "function").optional(),
});

export const ZWorkflowDefinitionInput = z.object({
  name: ZName,
  steps: z.array(ZStep).min(1),
  /** Triggers this workflow subscribes to (SPEC section 7, fan-out). */
  triggers: z.array(ZName).default([]),
  failurePolicy: z.enum(WORKFLOW_FAILURE_POLICIES).default("abort"),
  /** `retry` policy: attempts per step, the first one included. */
  maxStepAttempts: z.number().int().min(1).max(100).default(3),
  /** `retry` policy: delay before the second attempt, doubled for each further one. */
  retryBackoffMs: z.number().int().min(0).max(3_600_000).default(1_000),
});
export type TWorkflowDefinitionInput = z.input<typeof ZWorkflowDefinitionInput>;

export interface WorkflowStepDefinition {
  name: string;
  actor: string;
  expectation: string;
  dependsOn: readonly string[];
  input?: StepInput | undefined;
}

export interface WorkflowDefinition {
  name: string;
  /** In a topological order: every step after the steps it depends on. */
  steps: readonly WorkflowStepDefinition[];
  triggers: readonly string[];
  failurePolicy: WorkflowFailurePolicy;
  maxStepAttempts: number;
  retryBackoffMs: number;
}

/**
 * Validates a workflow at definition time, so a typo in a dependency or a cycle fails the
 * process at start-up instead of leaving an instance that can never finish.
 */
export function defineWorkflow(input: TWorkflowDefinitionInput): WorkflowDefinition {
  const parsed = ZWorkflowDefinitionInput.safeParse(input);
  if (!parsed.success) {
    throw new CycliumError(
      "invalid_config",
      `Invalid workflow ${describeName(input)}: ${z.prettifyError(parsed.error)}`,
    );
  }
  const { steps, ...rest } = parsed.data;
  const byName = new Map<string, WorkflowStepDefinition>();
  for (const step of steps) {
    if (byName.has(step.name)) {
      throw invalid(rest.name, `step "${step.name}" is defined twice`);
    }
    byName.set(step.name, step);
  }
  for (const step of steps) {
    for (const dependency of step.dependsOn) {
      if (!byName.has(dependency)) {
        throw invalid(rest.name, `step "${step.name}" depends on unknown step "${dependency}"`);
      }
    }
  }
  return Object.freeze({
    ...rest,
    triggers: Object.freeze([...new Set(rest.triggers)]),
    steps: Object.freeze(topologicalOrder(rest.name, steps)),
  });
}

/** Kahn's algorithm; whatever is left when no step is ready lies on a cycle. */
function topologicalOrder(
  workflow: string,
  steps: readonly WorkflowStepDefinition[],
): WorkflowStepDefinition[] {
  const remaining = new Map(steps.map((step) => [step.name, new Set(step.dependsOn)]));
  const ordered: WorkflowStepDefinition[] = [];
  while (remaining.size > 0) {
    const ready = steps.filter((step) => remaining.get(step.name)?.size === 0);
    if (ready.length === 0) {
      throw invalid(workflow, `steps ${[...remaining.keys()].join(", ")} form a dependency cycle`);
    }
    for (const step of ready) {
      remaining.delete(step.name);
      ordered.push(Object.freeze({ ...step, dependsOn: Object.freeze([...step.dependsOn]) }));
    }
    for (const dependencies of remaining.values()) {
      for (const step of ready) dependencies.delete(step.name);
    }
  }
  return ordered;
}

function invalid(workflow: string, reason: string): CycliumError {
  return new CycliumError("invalid_config", `Invalid workflow "${workflow}": ${reason}.`);
}

function describeName(input: unknown): string {
  if (typeof input === "object" && input !== null && "name" in input) {
    return JSON.stringify(input.name);
  }
  return "(unnamed)";
}
