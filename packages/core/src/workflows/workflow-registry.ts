import { CycliumError } from "../errors/index";
import type { WorkflowDefinition } from "./workflow-definition";

/**
 * The workflows this process knows, including ones other packages register: trigger fan-out
 * resolves a trigger's subscribers here, and the engine finds an instance's definition here.
 */
export class WorkflowRegistry {
  readonly #workflows = new Map<string, WorkflowDefinition>();

  /** Registering the same definition again is a no-op; another one under the name is a bug. */
  register(...definitions: WorkflowDefinition[]): this {
    for (const definition of definitions) {
      const existing = this.#workflows.get(definition.name);
      if (existing && existing !== definition) {
        throw new CycliumError(
          "invalid_config",
          `Workflow "${definition.name}" is registered twice with different definitions.`,
        );
      }
      this.#workflows.set(definition.name, definition);
    }
    return this;
  }

  get(name: string): WorkflowDefinition | undefined {
    return this.#workflows.get(name);
  }

  has(name: string): boolean {
    return this.#workflows.has(name);
  }

  list(): WorkflowDefinition[] {
    return [...this.#workflows.values()];
  }

  /** Workflows that name `trigger` in their `triggers` list, in registration order. */
  subscribersOf(trigger: string): WorkflowDefinition[] {
    return this.list().filter((definition) => definition.triggers.includes(trigger));
  }
}
