import type { WorkflowRegistry } from "../workflows/index";
import type { TriggerRegistry } from "./trigger-registry";

/**
 * The workflows a fire starts, primary first: the primary and every workflow that names the
 * trigger in its `triggers` list, from any package that registered it here. A plain cron
 * schedule (`fanOut: false`) binds exactly its own workflow.
 */
export function fanOutTargets(
  trigger: { name: string; workflow: string; fanOut: boolean },
  workflows: WorkflowRegistry | undefined,
): string[] {
  const names = [trigger.workflow];
  if (!trigger.fanOut) return names;
  for (const workflow of workflows?.subscribersOf(trigger.name) ?? []) {
    if (!names.includes(workflow.name)) names.push(workflow.name);
  }
  return names;
}

/** `fanOutTargets` for a stored trigger, or undefined when this process has no workflows. */
export function subscribersOf(
  row: { name: string; workflow: string },
  registries: { triggers?: TriggerRegistry | undefined; workflows?: WorkflowRegistry | undefined },
): string[] | undefined {
  if (!registries.workflows) return undefined;
  const fanOut = registries.triggers?.get(row.name)?.fanOut ?? true;
  return fanOutTargets({ ...row, fanOut }, registries.workflows);
}
