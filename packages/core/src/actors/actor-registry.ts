import { CycliumError } from "../errors/index";
import {
  declaresLimit,
  limitRulesFor,
  type LimitedEpisode,
  type LimitRule,
} from "../limits/limit-rules";
import { silentLogger, type Logger } from "../telemetry/index";
import type { RecoveryPolicy } from "./recovery-policy";
import {
  findExpectation,
  type ActorDefinition,
  type ExpectationDefinition,
} from "./actor-definition";
import type { AnyStrategy } from "./strategy";
import type { StrategyRegistry } from "./strategy-registry";

/** What changed in a registry update; `changed` holds actors whose definition was replaced. */
export interface ActorRegistryChange {
  added: ActorDefinition[];
  removed: ActorDefinition[];
  changed: { before: ActorDefinition; after: ActorDefinition }[];
}

export type ActorRegistryListener = (change: ActorRegistryChange) => void;

export interface ActorRegistryOptions {
  /** Compiled actors (`defineActor`); they win over a dynamic actor of the same identifier. */
  actors?: readonly ActorDefinition[];
  strategies: StrategyRegistry;
  logger?: Logger;
}

/** The strategy an expectation runs, or the name no strategy is registered under here. */
export type ResolveStrategyResult =
  { kind: "resolved"; strategy: AnyStrategy } | { kind: "unknown_strategy"; name: string };

/**
 * Every actor a node knows: the compiled ones, fixed at start-up, and the dynamic ones, replaced
 * as a whole by the loader whenever cyclium_agent_definitions changes. Recovery and the console
 * look policies and expectations up here.
 */
export class ActorRegistry {
  readonly strategies: StrategyRegistry;
  readonly #compiled = new Map<string, ActorDefinition>();
  #dynamic = new Map<string, ActorDefinition>();
  readonly #listeners = new Set<ActorRegistryListener>();
  readonly #logger: Logger;

  constructor(options: ActorRegistryOptions) {
    this.strategies = options.strategies;
    this.#logger = options.logger ?? silentLogger;
    for (const actor of options.actors ?? []) {
      if (this.#compiled.has(actor.identifier)) {
        throw new CycliumError(
          "invalid_config",
          `Actor "${actor.identifier}" is defined twice in the compiled actor list.`,
        );
      }
      this.#compiled.set(actor.identifier, actor);
    }
  }

  get(identifier: string): ActorDefinition | undefined {
    return this.#compiled.get(identifier) ?? this.#dynamic.get(identifier);
  }

  /** Whether `identifier` is a compiled actor (one a dynamic actor of that name cannot replace). */
  isCompiled(identifier: string): boolean {
    return this.#compiled.has(identifier);
  }

  /** Compiled actors first, then dynamic ones, each sorted by identifier. */
  list(): ActorDefinition[] {
    const byId = (a: ActorDefinition, b: ActorDefinition) =>
      a.identifier.localeCompare(b.identifier);
    const dynamic = [...this.#dynamic.values()].filter((a) => !this.#compiled.has(a.identifier));
    return [...[...this.#compiled.values()].sort(byId), ...dynamic.sort(byId)];
  }

  expectation(actorId: string, expectationId: string): ExpectationDefinition | undefined {
    const actor = this.get(actorId);
    return actor === undefined ? undefined : findExpectation(actor, expectationId);
  }

  /** The recovery policy of an expectation; undefined for unknown actors or expectations. */
  recoveryPolicyFor(actorId: string, expectationId: string): RecoveryPolicy | undefined {
    return this.expectation(actorId, expectationId)?.recoveryPolicy;
  }

  /**
   * The cluster-wide limits an episode's start must pass (SPEC section 16): its actor's and its
   * expectation's rules, keyed by its input. Empty for an episode without any.
   */
  limitRulesFor(episode: LimitedEpisode): LimitRule[] {
    const actor = this.get(episode.actorId);
    if (actor === undefined) return [];
    const expectation = findExpectation(actor, episode.expectationId);
    if (!declaresLimit(actor) && !declaresLimit(expectation)) return [];
    return limitRulesFor(episode, { actor, expectation });
  }

  /** Whether an expectation's episodes are under any cluster-wide limit. */
  isLimited(actorId: string, expectationId: string): boolean {
    const actor = this.get(actorId);
    if (actor === undefined) return false;
    return declaresLimit(actor) || declaresLimit(findExpectation(actor, expectationId));
  }

  /** The strategy an expectation runs: its own object, or the registered one it names. */
  resolveStrategy(expectation: ExpectationDefinition): ResolveStrategyResult {
    if (typeof expectation.strategy !== "string") {
      return { kind: "resolved", strategy: expectation.strategy };
    }
    const strategy = this.strategies.get(expectation.strategy);
    if (strategy === undefined) {
      return { kind: "unknown_strategy", name: expectation.strategy };
    }
    return { kind: "resolved", strategy };
  }

  /** Replaces the set of dynamic actors and tells listeners what changed. */
  replaceDynamic(actors: readonly ActorDefinition[]): ActorRegistryChange {
    const before = new Map(this.list().map((actor) => [actor.identifier, actor]));
    const next = new Map<string, ActorDefinition>();
    for (const actor of actors) {
      if (this.#compiled.has(actor.identifier)) {
        this.#logger.warn(
          { actor_id: actor.identifier },
          "dynamic actor shadowed by a compiled actor of the same identifier; ignoring it",
        );
        continue;
      }
      next.set(actor.identifier, actor);
    }
    this.#dynamic = next;
    const after = new Map(this.list().map((actor) => [actor.identifier, actor]));
    const change: ActorRegistryChange = { added: [], removed: [], changed: [] };
    for (const [id, actor] of after) {
      const old = before.get(id);
      if (old === undefined) change.added.push(actor);
      else if (old !== actor) change.changed.push({ before: old, after: actor });
    }
    for (const [id, actor] of before) if (!after.has(id)) change.removed.push(actor);
    if (change.added.length + change.removed.length + change.changed.length > 0) {
      for (const listener of [...this.#listeners]) {
        try {
          listener(change);
        } catch (err) {
          this.#logger.error({ err }, "actor registry listener failed");
        }
      }
    }
    return change;
  }

  onChange(listener: ActorRegistryListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
