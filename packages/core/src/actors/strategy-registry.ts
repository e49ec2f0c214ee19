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

/**
 * A registry by shape, not `instanceof`: a deployment module imports its own copy of core (the
 * console loads it at start, beside the core it bundles), and a registry from that copy is still
 * one. A record of strategies has no `get`/`names` functions (a strategy named so would be an
 * object, not a function), so the two cannot be confused.
 */
export function isStrategyRegistry(value: unknown): value is StrategyRegistry {
  if (value instanceof StrategyRegistry) return true;
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Record<keyof StrategyRegistry, unknown>>;
  return (
    typeof candidate.get === "function" &&
    typeof candidate.has === "function" &&
    typeof candidate.names === "function" &&
    typeof candidate.register === "function"
  );
}
