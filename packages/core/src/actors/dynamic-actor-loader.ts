import type { Bus, Unsubscribe } from "../bus/index";
import type { Queryable } from "../db/index";
import { startJitteredInterval, type JitteredInterval } from "../timers/index";
import { silentLogger, type Logger } from "../telemetry/index";
import type { ActorDefinition } from "./actor-definition";
import type { ActorRegistry } from "./actor-registry";
import { parseAgentDefinition } from "./definitions/agent-definition";
import { AGENT_DEFINITIONS_CHANGED } from "./definitions/agent-definition-changed";
import { loadAgentDefinitions, type AgentDefinitionRow } from "./load-agent-definitions";

export interface DynamicActorLoaderOptions {
  db: Queryable;
  registry: ActorRegistry;
  /** The node's env: it runs that env's dynamic actors only (null: the unset env's). */
  env: string | null;
  /**
   * How often the table is re-read, the fallback behind the bus event (and the node's re-read
   * after a listener reconnect). Default DEFAULT_DYNAMIC_ACTORS_POLL_MS.
   */
  intervalMs?: number;
  /**
   * Reload on `agent_definitions.changed` (published by every write of the definitions), so a
   * change takes effect in milliseconds; the interval stays as the fallback.
   */
  bus?: Pick<Bus, "subscribe"> | undefined;
  logger?: Logger;
}

/**
 * The fallback re-read's default. Every write of a definition publishes
 * `agent_definitions.changed`, so an edit applies in milliseconds; at 2 s the fallback was half a
 * commit a second per idle worker (issue 28) for the rare event a notification was lost.
 */
export const DEFAULT_DYNAMIC_ACTORS_POLL_MS = 30_000;

/**
 * Keeps the registry's dynamic actors in line with its env's rows of cyclium_agent_definitions,
 * so adding,
 * editing, disabling or deleting a row starts, restarts or stops the actor without a restart.
 * A row that does not validate is logged and skipped; the other actors keep running.
 */
export class DynamicActorLoader {
  readonly #db: Queryable;
  readonly #registry: ActorRegistry;
  readonly #env: string | null;
  readonly #intervalMs: number;
  readonly #logger: Logger;
  /** Per identifier: the row's fingerprint and what it parsed to, so unchanged rows keep identity. */
  #known = new Map<string, { fingerprint: string; definition: ActorDefinition | null }>();
  #timer: JitteredInterval | undefined;
  #unsubscribe: Unsubscribe | undefined;
  #running: Promise<void> | undefined;
  #failing = false;
  #stopped = false;

  private constructor(options: DynamicActorLoaderOptions) {
    this.#db = options.db;
    this.#registry = options.registry;
    this.#env = options.env;
    this.#intervalMs = options.intervalMs ?? DEFAULT_DYNAMIC_ACTORS_POLL_MS;
    this.#logger = options.logger ?? silentLogger;
  }

  /** Loads once (rejecting when that fails), then keeps reloading on the interval. */
  static async start(options: DynamicActorLoaderOptions): Promise<DynamicActorLoader> {
    const loader = new DynamicActorLoader(options);
    await loader.reload();
    loader.#timer = startJitteredInterval(() => void loader.#reloadQuietly(), loader.#intervalMs);
    loader.#unsubscribe = options.bus?.subscribe(AGENT_DEFINITIONS_CHANGED, () =>
      loader.#reloadAfterChange(),
    );
    return loader;
  }

  /** Reads the table now and applies what changed. Concurrent calls share one read. */
  reload(): Promise<void> {
    this.#running ??= this.#reloadOnce().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#timer?.stop();
    this.#unsubscribe?.();
    await this.#running?.catch(() => undefined);
  }

  /** A read already under way may have begun before the change committed: read again after it. */
  async #reloadAfterChange(): Promise<void> {
    await this.#running?.catch(() => undefined);
    if (!this.#stopped) await this.#reloadQuietly();
  }

  async #reloadQuietly(): Promise<void> {
    try {
      await this.reload();
      if (this.#failing) this.#logger.info({}, "loading dynamic actors works again");
      this.#failing = false;
    } catch (err) {
      if (!this.#failing) this.#logger.warn({ err }, "loading dynamic actors failed; will retry");
      this.#failing = true;
    }
  }

  async #reloadOnce(): Promise<void> {
    const rows = await loadAgentDefinitions({ env: this.#env }, this.#db);
    if (this.#stopped) return;
    const known = new Map<string, { fingerprint: string; definition: ActorDefinition | null }>();
    for (const row of rows) {
      const fingerprint = fingerprintOf(row);
      const previous = this.#known.get(row.identifier);
      if (previous?.fingerprint === fingerprint) {
        known.set(row.identifier, previous);
        continue;
      }
      known.set(row.identifier, { fingerprint, definition: this.#parse(row) });
    }
    this.#known = known;
    const definitions = [...known.values()].flatMap((entry) =>
      entry.definition === null ? [] : [entry.definition],
    );
    const change = this.#registry.replaceDynamic(definitions);
    for (const actor of change.added)
      this.#logger.info({ actor_id: actor.identifier }, "dynamic actor added");
    for (const actor of change.removed)
      this.#logger.info({ actor_id: actor.identifier }, "dynamic actor removed");
    for (const { after } of change.changed)
      this.#logger.info({ actor_id: after.identifier }, "dynamic actor changed");
  }

  #parse(row: AgentDefinitionRow): ActorDefinition | null {
    const parsed = parseAgentDefinition(row);
    if (parsed.kind === "parsed") return parsed.actor;
    this.#logger.error(
      { actor_id: row.identifier, definition_id: row.id, issues: parsed.message },
      "invalid dynamic actor definition; skipping it",
    );
    return null;
  }
}

function fingerprintOf(row: AgentDefinitionRow): string {
  return JSON.stringify([
    row.updated_at.getTime(),
    row.max_concurrent_episodes,
    row.stacks,
    row.expectations,
  ]);
}
