import { Cron } from "croner";
import type { PollFunction, PollOutcome } from "../actors/index";
import { CRON_MODE } from "../actors/index";
import type { Queryable } from "../db/index";
import type { Logger } from "../telemetry/index";
import type { ExpectationTurnKey, ExpectationTurnStore } from "./expectation-turn-store";
import { planCronTurn, planPollTurn, type WindowRule } from "./plan-turn";

// setTimeout overflows above 2^31-1 ms (~24.8 days); long waits are re-armed in hops of at most
// an hour, which also re-reads a row another node moved and corrects for a stepped wall clock.
const MAX_HOP_MS = 60 * 60_000;
/** How soon a node whose actor is disabled here looks at a due turn again. */
const INACTIVE_RETRY_MS = 1_000;
/**
 * A window is fired when its turn is claimed within this long of it (the trigger default): a
 * window the whole cluster slept through is skipped, as the seed's per-node timers did, not run
 * late.
 */
const SCHEDULE_GRACE_MS = 60_000;

interface TurnsOptions {
  key: ExpectationTurnKey;
  store: ExpectationTurnStore;
  logger: Logger;
  /** Checked before claiming: a node where the actor is disabled leaves the turn to others. */
  isActive: () => boolean;
  /** The clock turns are planned on (ms since the epoch); tests move it. */
  now?: (() => number) | undefined;
}

export interface ScheduleTurnsOptions extends TurnsOptions {
  schedule: string;
  /** IANA zone the expression is read in; croner handles the DST gaps and repeats. */
  timezone: string;
  /** Gets the scheduled instant (not the moment of the claim): it is the dedupe window. */
  onFire: (scheduledAt: Date) => Promise<void>;
}

/**
 * A schedule expectation on claimed turns (SPEC section 3): every node hosting the actor wakes at
 * the stored next window, and the one whose claim moves it on fires that window; the dedupe key
 * (`schedule:...:{window}`) still makes one episode of it if two ever did.
 */
export class ScheduleTurns {
  readonly #o: ScheduleTurnsOptions;
  readonly #now: () => number;
  readonly #rule: WindowRule;
  readonly #ruleText: string;
  #timer: NodeJS.Timeout | undefined;
  #next: Date | null = null;
  #stopped = true;

  constructor(options: ScheduleTurnsOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    const cron = new Cron(options.schedule, {
      timezone: options.timezone,
      mode: CRON_MODE,
      paused: true,
    });
    this.#ruleText = `cron ${options.schedule} ${options.timezone}`;
    this.#rule = {
      schedule: {
        nextAfter: (after) => cron.nextRun(after),
        latestAtOrBefore: (at) => cron.previousRuns(1, new Date(at.getTime() + 1))[0] ?? null,
      },
      catchUp: "skip",
      misfireGraceMs: SCHEDULE_GRACE_MS,
      catchUpLimit: 1,
    };
  }

  /** The window the node waits for; null when stopped or the expression never fires again. */
  get nextFireAt(): Date | null {
    return this.#next;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#next = this.#rule.schedule.nextAfter(new Date(this.#now()));
    this.#o.store
      .ensure(this.#o.key, this.#ruleText, this.#next)
      .then(() => this.#arm())
      .catch((err: unknown) => this.#failed(err));
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#next = null;
  }

  #arm(delayMs?: number): void {
    clearTimeout(this.#timer);
    if (this.#stopped) return;
    const wait =
      delayMs ??
      (this.#next === null ? MAX_HOP_MS : Math.max(0, this.#next.getTime() - this.#now()));
    this.#timer = setTimeout(() => void this.#tick(), Math.min(MAX_HOP_MS, wait));
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    if (this.#stopped) return;
    try {
      const due = await this.#o.store.read(this.#o.key);
      if (due === undefined) {
        // The row went (a reset database): store it again from now on.
        this.#next = this.#rule.schedule.nextAfter(new Date(this.#now()));
        await this.#o.store.ensure(this.#o.key, this.#ruleText, this.#next);
        return this.#arm();
      }
      const turn = planCronTurn(this.#rule, due, new Date(this.#now()));
      if (turn === null) {
        this.#next = due;
        return this.#arm();
      }
      if (!this.#o.isActive()) {
        this.#next = turn.next;
        return this.#arm(INACTIVE_RETRY_MS);
      }
      const won = await this.#o.store.claim(this.#o.key, {
        due: turn.due,
        next: turn.next,
        fired: turn.fire,
      });
      this.#next = turn.next;
      if (won && !this.#stopped) {
        for (const window of turn.fires) await this.#fire(window);
      }
      // Lost: another node moved the row on; the next read finds where.
      return this.#arm();
    } catch (err) {
      this.#failed(err);
    }
  }

  async #fire(window: Date): Promise<void> {
    try {
      await this.#o.onFire(window);
    } catch (err) {
      this.#o.logger.error({ err, scheduled_at: window.toISOString() }, "scheduled fire failed");
    }
  }

  #failed(err: unknown): void {
    // A lost connection: try again shortly; a window missed meanwhile is skipped by the grace.
    this.#o.logger.warn({ err }, "schedule turn failed; trying again");
    this.#arm(INACTIVE_RETRY_MS);
  }
}

export interface PollTurnsOptions extends TurnsOptions {
  poll: PollFunction;
  intervalMs: number;
  db: Queryable;
  /** Gets the context to fire with (its hash is the dedupe key). */
  onFire: (context: Record<string, unknown>) => Promise<void>;
}

/**
 * A poll expectation on claimed turns: every node hosting the actor looks every `intervalMs`,
 * and only the node that claims the due turn runs the poll function (never two at once on a
 * node). A plain `true` carries no context of its own, so it fires with the interval window it
 * belongs to: one episode per interval, where a constant context would fire once and then be
 * deduplicated until that episode is archived.
 */
export class PollTurns {
  readonly #o: PollTurnsOptions;
  readonly #now: () => number;
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #ensured: Promise<void> | undefined;

  constructor(options: PollTurnsOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  start(): void {
    this.#ensured ??= this.#ensure();
    this.#timer ??= setInterval(() => void this.runOnce(), this.#o.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#abort.abort();
  }

  async runOnce(): Promise<void> {
    if (this.#running || this.#abort.signal.aborted || !this.#o.isActive()) return;
    this.#running = true;
    try {
      if (!(await this.#claim())) return;
      const { db, logger } = this.#o;
      const outcome: PollOutcome = await this.#o.poll({ signal: this.#abort.signal, db, logger });
      const context = contextOf(outcome, this.#o.intervalMs, this.#now());
      if (context !== null) await this.#o.onFire(context);
    } catch (err) {
      this.#o.logger.warn({ err }, "poll trigger failed; will poll again on its interval");
    } finally {
      this.#running = false;
    }
  }

  async #claim(): Promise<boolean> {
    await (this.#ensured ??= this.#ensure());
    const due = await this.#o.store.read(this.#o.key);
    if (due === undefined) {
      this.#ensured = this.#ensure();
      return false;
    }
    // A tick of the claiming node's own interval lands a hair early as often as late; a tenth
    // of the interval (at most 25 ms) keeps it from skipping its next turn for that.
    const slack = Math.min(25, this.#o.intervalMs / 10);
    const now = this.#now();
    const turn = planPollTurn({ pollIntervalMs: this.#o.intervalMs }, due, new Date(now + slack));
    if (turn === null) return false;
    const next = new Date(now + this.#o.intervalMs);
    return this.#o.store.claim(this.#o.key, { due: turn.due, next, fired: null });
  }

  #ensure(): Promise<void> {
    return this.#o.store.ensure(this.#o.key, `poll ${this.#o.intervalMs}`, null);
  }
}

function contextOf(
  outcome: PollOutcome,
  intervalMs: number,
  now: number,
): Record<string, unknown> | null {
  if (outcome === true) {
    const window = Math.floor(now / intervalMs) * intervalMs;
    return { window: new Date(window).toISOString() };
  }
  if (typeof outcome === "object" && outcome !== null) return outcome.context;
  return null;
}
