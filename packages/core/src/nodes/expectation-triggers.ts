import type { ActorDefinition, ActorRegistry, ExpectationDefinition } from "../actors/index";
import { BreakerGuard, circuitBreakerOf, EventGate, runsOnStack } from "../actors/index";
import { serializeEvent, type Bus, type BusEvent } from "../bus/index";
import type { Queryable } from "../db/index";
import { isCycliumError } from "../errors/index";
import type { Mode } from "../modes/index";
import {
  fireDedupeKey,
  parseFireRequest,
  type ActorHost,
  type FireResult,
  type TFireRequest,
} from "../runtime/index";
import { defaultTelemetry, type Logger, type Telemetry } from "../telemetry/index";
import {
  PollTurns,
  PostgresExpectationTurns,
  ScheduleTurns,
  type ExpectationTurnStore,
} from "../turns/index";
import { EventAdmission } from "./event-admission";

export interface ExpectationTriggersOptions {
  registry: ActorRegistry;
  host: Pick<ActorHost, "fire">;
  bus: Bus;
  modes: { effectiveMode(actorId: string): Mode };
  db: Queryable;
  stack: string | null;
  /** The node's env: the circuit breaker reads this env's episodes. */
  env?: string | null;
  /** Owner of a breaker rejection's claim (one `circuit_breaker.rejected` per occurrence). */
  nodeIdentity?: string;
  /** The clock schedule and poll turns are planned on (ms since the epoch); tests move it. */
  now?: () => number;
  /** Where schedule and poll turns are claimed; default `cyclium_expectation_turns` on `db`. */
  turns?: ExpectationTurnStore;
  telemetry?: Telemetry;
  logger: Logger;
  /** Bus events worked on at once (see event-admission.ts); default 256. */
  eventsInFlight?: number;
}

/**
 * Starts every hosted expectation's trigger — bus subscriptions for events, claimed turns for
 * schedules and polls (the mechanism of deployment triggers, triggers/expectation-turns.ts) —
 * and restarts an actor's triggers when its definition changes (dynamic actors). Every node
 * receives every event and dedupe keys make one episode of each; a schedule window or a poll
 * interval is run by the one node that claims its turn. A trigger whose actor is `disabled` here
 * does not fire (SPEC section 6).
 */
export class ExpectationTriggers {
  readonly #o: ExpectationTriggersOptions;
  readonly #stops = new Map<string, (() => void)[]>();
  readonly #admission: EventAdmission<string>;
  readonly #turns: ExpectationTurnStore;
  #offRegistry: (() => void) | undefined;

  constructor(options: ExpectationTriggersOptions) {
    this.#o = options;
    this.#turns = options.turns ?? new PostgresExpectationTurns(options.db);
    this.#admission = new EventAdmission(options.eventsInFlight, (err: unknown) =>
      options.logger.error({ err }, "event trigger failed"),
    );
  }

  start(): void {
    for (const actor of this.#o.registry.list()) this.#startActor(actor);
    this.#offRegistry = this.#o.registry.onChange((change) => {
      for (const actor of change.removed) this.#stopActor(actor.identifier);
      for (const { after } of change.changed) {
        this.#stopActor(after.identifier);
        this.#startActor(after);
      }
      for (const actor of change.added) this.#startActor(actor);
    });
  }

  stop(): void {
    this.#offRegistry?.();
    for (const id of [...this.#stops.keys()]) this.#stopActor(id);
  }

  #startActor(actor: ActorDefinition): void {
    if (!runsOnStack(actor, this.#o.stack) || this.#stops.has(actor.identifier)) return;
    const stops = actor.expectations.flatMap((expectation) =>
      this.#startExpectation(actor, expectation),
    );
    this.#stops.set(actor.identifier, stops);
  }

  #stopActor(actorId: string): void {
    for (const stop of this.#stops.get(actorId) ?? []) stop();
    this.#stops.delete(actorId);
  }

  #startExpectation(actor: ActorDefinition, expectation: ExpectationDefinition): (() => void)[] {
    const actorId = actor.identifier;
    const expectationId = expectation.id;
    const { trigger } = expectation;
    const active = (): boolean => this.#o.modes.effectiveMode(actorId) !== "disabled";
    const breaker = this.#breakerOf(actorId, expectation);
    // Every kind but manual passes the breaker first (SPEC 12): an open breaker refuses the fire.
    const fire = async (request: TFireRequest): Promise<FireResult | undefined> => {
      if (breaker !== undefined) {
        const occurrence = fireDedupeKey(parseFireRequest(request), this.#o.env ?? null);
        const meta = { trigger_type: request.triggerType, dedupe_key: occurrence };
        if (!(await breaker.admits(occurrence, meta))) return undefined;
      }
      return this.#fire(request);
    };
    if ("event" in trigger) {
      const gate = new EventGate({
        gates: trigger,
        actorId,
        expectationId,
        logger: this.#o.logger,
        ...(breaker === undefined
          ? {}
          : {
              admit: (event: BusEvent) =>
                breaker.admits(
                  fireDedupeKey(
                    parseFireRequest({ actorId, expectationId, triggerType: "event", event }),
                    this.#o.env ?? null,
                  ),
                  { trigger_type: "event", event_id: event.id },
                ),
            }),
        fire: async ({ id, payload }) => {
          // Checked again after a debounce: the actor may have been disabled meanwhile.
          if (!active()) return false;
          const result = await this.#fire({
            actorId,
            expectationId,
            triggerType: "event",
            input: payload,
            event: { id, payload },
          });
          // A dropped fire (full queue, overflow "drop") created nothing: no cooldown.
          return result !== undefined && result.kind !== "dropped";
        },
      });
      // One function per expectation; each waiting event is its JSON text (see event-admission).
      const admit = async (text: string): Promise<void> => {
        if (!active()) return;
        await gate.onEvent(JSON.parse(text) as BusEvent);
      };
      // Returns at once: the event waits in the admission's FIFO, not in a promise per event.
      const unsubscribe = this.#o.bus.subscribe(trigger.event, (event: BusEvent) => {
        this.#admission.submit(admit, serializeEvent(event));
      });
      return [unsubscribe, () => gate.stop()];
    }
    const turns = {
      key: { actorId, expectationId, env: this.#o.env ?? null },
      store: this.#turns,
      logger: this.#o.logger,
      isActive: active,
      now: this.#o.now,
    };
    if ("schedule" in trigger) {
      const timer = new ScheduleTurns({
        ...turns,
        schedule: trigger.schedule,
        timezone: trigger.timezone,
        onFire: async (scheduledAt) => {
          if (!active()) return;
          const input = { scheduledAt: scheduledAt.toISOString() };
          await fire({ actorId, expectationId, triggerType: "schedule", input, scheduledAt });
        },
      });
      timer.start();
      return [() => timer.stop()];
    }
    if ("poll" in trigger) {
      const timer = new PollTurns({
        ...turns,
        poll: trigger.poll,
        intervalMs: trigger.intervalMs,
        db: this.#o.db,
        onFire: async (context) => {
          await fire({
            actorId,
            expectationId,
            triggerType: "poll",
            input: context,
            pollContext: context,
          });
        },
      });
      timer.start();
      return [() => timer.stop()];
    }
    return [];
  }

  #breakerOf(actorId: string, expectation: ExpectationDefinition): BreakerGuard | undefined {
    const config = circuitBreakerOf(expectation.trigger);
    if (config === null) return undefined;
    return new BreakerGuard({
      breaker: config,
      actorId,
      expectationId: expectation.id,
      env: this.#o.env ?? null,
      nodeIdentity: this.#o.nodeIdentity ?? "unknown-node",
      db: this.#o.db,
      telemetry: this.#o.telemetry ?? defaultTelemetry,
      logger: this.#o.logger,
      bus: this.#o.bus,
    });
  }

  /** The fire's result, or undefined when it could not fire (logged here). */
  async #fire(request: TFireRequest): Promise<FireResult | undefined> {
    const meta = {
      actor_id: request.actorId,
      expectation_id: request.expectationId,
      trigger: request.triggerType,
    };
    try {
      const result = await this.#o.host.fire(request);
      this.#o.logger.debug({ ...meta, ...result }, "expectation fired");
      return result;
    } catch (err) {
      // Stopping, or the actor vanished/was disabled between the trigger and the fire.
      const level = isCycliumError(err) ? "info" : "error";
      this.#o.logger[level]({ err, ...meta }, "expectation trigger could not fire");
      return undefined;
    }
  }
}
