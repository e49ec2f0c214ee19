import { CycliumError } from "../errors/index";
import type { TriggerDefinition } from "./trigger-definition";

/** The triggers this process schedules and can fire by name. */
export class TriggerRegistry {
  readonly #triggers = new Map<string, TriggerDefinition>();

  register(...definitions: TriggerDefinition[]): this {
    for (const definition of definitions) {
      const existing = this.#triggers.get(definition.name);
      if (existing && existing !== definition) {
        throw new CycliumError(
          "invalid_config",
          `Trigger "${definition.name}" is registered twice with different definitions.`,
        );
      }
      this.#triggers.set(definition.name, definition);
    }
    return this;
  }

  get(name: string): TriggerDefinition | undefined {
    return this.#triggers.get(name);
  }

  list(): TriggerDefinition[] {
    return [...this.#triggers.values()];
  }
}
