import type { BusEvent } from "../../bus/index";
import type { Logger } from "../../telemetry/index";
import { Cooldown } from "./cooldown";
import { TrailingDebounce } from "./debounce";
import { matchesFilter, subjectOf } from "./event-filter";
import type { EventGatesConfig } from "./event-gates-schema";

export interface EventGateOptions {
  gates: EventGatesConfig;
  actorId: string;
  expectationId: string;
  logger: Logger;
  /**
   * The circuit breaker (a `BreakerGuard`, which announces its refusals): false refuses the
   * event. Absent when the trigger switched its breaker off.
   */
  admit?: ((event: BusEvent) => Promise<boolean>) | undefined;
  /**
   * Fires the expectation for an event that passed (the host's own jitter comes after, last in
   * the order). Resolves true when an episode exists for it, created here or by another node.
   */
  fire: (event: BusEvent) => Promise<boolean>;
}

/**
 * An event trigger's gates in the order of SPEC 12: filter → cooldown (per subject) → trailing
 * debounce (per subject, last event wins) → circuit breaker → fire (and the host's jitter).
 * Manual fires never come through here, so they bypass breaker and cooldown by construction.
 */
export class EventGate {
  readonly #o: EventGateOptions;
  readonly #cooldown: Cooldown | undefined;
  readonly #debounce: TrailingDebounce<BusEvent> | undefined;

  constructor(options: EventGateOptions) {
    this.#o = options;
    const { gates } = options;
    this.#cooldown = gates.cooldownMs === undefined ? undefined : new Cooldown(gates.cooldownMs);
    this.#debounce =
      gates.debounceMs === undefined
        ? undefined
        : new TrailingDebounce<BusEvent>(gates.debounceMs, (subject, event) => {
            void this.#release(subject, event);
          });
  }

  async onEvent(event: BusEvent): Promise<void> {
    const { gates } = this.#o;
    if (!matchesFilter(event.payload, gates.filter)) return this.#skip(event, "filter");
    const subject = subjectOf(event.payload, gates.subjectKey);
    if (this.#cooldown?.active(subject)) return this.#skip(event, "cooldown");
    if (this.#debounce !== undefined) {
      this.#debounce.push(subject, event);
      return;
    }
    await this.#release(subject, event);
  }

  stop(): void {
    this.#debounce?.clear();
  }

  async #release(subject: string, event: BusEvent): Promise<void> {
    try {
      // Again: a cooldown may have started while this event sat in the debounce.
      if (this.#cooldown?.active(subject)) return this.#skip(event, "cooldown");
      if (this.#o.admit !== undefined && !(await this.#o.admit(event))) {
        return this.#skip(event, "circuit_breaker");
      }
      // Started only when an episode really fired (SPEC 12), not for gated or failed fires.
      if (await this.#o.fire(event)) this.#cooldown?.start(subject);
    } catch (err) {
      this.#o.logger.error({ err, event_id: event.id }, "event gate failed; event not fired");
    }
  }

  #skip(event: BusEvent, gate: string): void {
    this.#o.logger.debug(
      {
        actor_id: this.#o.actorId,
        expectation_id: this.#o.expectationId,
        event_id: event.id,
        gate,
      },
      "event gated",
    );
  }
}
