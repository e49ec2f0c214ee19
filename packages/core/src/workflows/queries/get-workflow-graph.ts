import type { Queryable } from "../../db/index";
import { pendingStep } from "../step-state";
import type { WorkflowRegistry } from "../workflow-registry";
import {
  getWorkflowInstance,
  type WorkflowInstanceItem,
  type WorkflowStepItem,
} from "./list-workflow-instances";

export interface WorkflowGraphNode extends WorkflowStepItem {
  actor: string | null;
  expectation: string | null;
  dependsOn: string[];
  /** Column in a left-to-right layout: 0 for steps without dependencies. */
  depth: number;
}

export interface WorkflowInstanceGraph {
  instance: WorkflowInstanceItem;
  /** False when this console does not know the workflow's definition (no edges to draw). */
  definitionKnown: boolean;
  failurePolicy: string | null;
  nodes: WorkflowGraphNode[];
}

/**
 * An instance with its step graph: states from the instance row, edges from the workflow's
 * definition in this process's registry (the same definitions the workers run). Steps the
 * definition does not list (renamed since) still show, without edges.
 */
export async function getWorkflowGraph(options: {
  db: Queryable;
  id: string;
  workflows: WorkflowRegistry | null;
}): Promise<WorkflowInstanceGraph | null> {
  const instance = await getWorkflowInstance({ db: options.db, id: options.id });
  if (instance === null) return null;
  const definition = options.workflows?.get(instance.workflowName);
  const states = new Map(instance.steps.map((step) => [step.name, step]));
  const depth = new Map<string, number>();
  const nodes: WorkflowGraphNode[] = [];
  // Definitions list steps in topological order, so each step's dependencies are placed first.
  for (const step of definition?.steps ?? []) {
    const level = Math.max(-1, ...step.dependsOn.map((name) => depth.get(name) ?? 0)) + 1;
    depth.set(step.name, level);
    const state = states.get(step.name);
    states.delete(step.name);
    nodes.push({
      ...(state ?? { ...pendingStep(), name: step.name }),
      actor: step.actor,
      expectation: step.expectation,
      dependsOn: [...step.dependsOn],
      depth: level,
    });
  }
  for (const state of states.values()) {
    nodes.push({ ...state, actor: null, expectation: null, dependsOn: [], depth: 0 });
  }
  return {
    instance,
    definitionKnown: definition !== undefined,
    failurePolicy: definition?.failurePolicy ?? null,
    nodes,
  };
}
