import { CycliumError } from "../errors/index";
import { isStrategy, type AnyStrategy, type Strategy } from "./strategy";

/**
 * Strategies by name, so that dynamic actors (rows of cyclium_agent_definitions) can name the
 * code their expectations run. A name that is not registered is not an error here: the episode
 * that needs it fails with `error_class = 'unknown_strategy'`, visible in the console.
 */
export class StrategyRegistry {
  readonly #strategies = new Map<string, AnyStrategy>();

  constructor(entries: Record<string, AnyStrategy> = {}) {
    for (const [name, strategy] of Object.entries(entries)) this.register(name, strategy);
  }

  register<I, S, R>(name: string, strategy: Strategy<I, S, R>): this {
    const trimmed = name.trim();
    if (trimmed.length === 0) {
      throw new CycliumError("invalid_config", "A strategy name must not be empty.");
    }
    if (!isStrategy(strategy)) {
      throw new CycliumError(
        "invalid_config",
        `Strategy "${trimmed}" must be an object with init and step functions.`,
      );
    }
    if (this.#strategies.has(trimmed) && this.#strategies.get(trimmed) !== strategy) {
      throw new CycliumError("invalid_config", `Strategy "${trimmed}" is already registered.`);
    }
    this.#strategies.set(trimmed, strategy);
    return this;
  }

  get(name: string): AnyStrategy | undefined {
    return this.#strategies.get(name);
  }

  has(name: string): boolean {
    return this.#strategies.has(name);
  }

  names(): string[] {
    return [...this.#strategies.keys()].sort();
  }
}
