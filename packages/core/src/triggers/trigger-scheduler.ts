import type { PgListener } from "../bus/index";
import type { Queryable } from "../db/index";
import { assertNever } from "../errors/index";
import { defaultTelemetry, silentLogger, type Logger, type Telemetry } from "../telemetry/index";
import type { WorkflowRegistry } from "../workflows/index";
import { claimTriggerTurn } from "./claim-trigger-turn";
import { fanOutFiring, type WorkflowStarter } from "./fan-out-firing";
import { loadTriggers } from "./load-triggers";
import { markTriggerFired } from "./mark-trigger-fired";
import { planCronTurn, planPollTurn, type TriggerTurn } from "../turns/index";
import {
  pollDecision,
  TriggerResult,
  type PollTriggerDefinition,
  type TriggerDefinition,
  type TriggerPollResult,
} from "./trigger-definition";
import { readTriggerBreaker, TriggerBreakerMonitor } from "./trigger-breaker";
import type { TriggerRegistry } from "./trigger-registry";
import type { TriggerRow } from "./trigger-row";
import { TRIGGERS_CHANNEL } from "./set-trigger-paused";
import { upsertTrigger } from "./upsert-trigger";

export interface TriggerSchedulerOptions {
  db: Queryable;
  /** The node's env: its triggers are the rows of that env. */
  env: string | null;
  /** Node identity, recorded as `fired_by`. */
  node: string;
  triggers: TriggerRegistry;
  workflows?: WorkflowRegistry | undefined;
  startWorkflow: WorkflowStarter;
  /**
   * The shortest wait between two reads of the trigger rows (default 1 s): a node reads them when
   * the earliest `next_fire_at` is due, on a NOTIFY that a trigger was paused or resumed, and
   * at the latest every `maxTickMs`.
   */
  tickMs?: number | undefined;
  /**
   * The longest wait between two reads: the fallback that sees rows another node changed without
   * a NOTIFY (a deploy's new schedule). Default DEFAULT_TRIGGER_MAX_TICK_MS, or `tickMs` when
   * only that is given (tests that set a fast tick keep reading at that pace).
   */
  maxTickMs?: number | undefined;
  /** The node's listener: `cyclium_triggers` NOTIFYs (pause, resume) and reconnects wake it. */
  listener?: Pick<PgListener, "listen" | "onReconnect"> | undefined;
  /**
   * How long a poll function may run before its turn is abandoned (its `signal` aborts) and the
   * trigger waits for its next turn; a trigger's own `pollTimeoutMs` wins. Default 30 s, as in
   * Cloacina: without it one hung poll blocked its trigger on that node for good.
   */
  pollTimeoutMs?: number | undefined;
  /** Checked on every tick; false skips it (a disabled node). */
  isEnabled?: (() => boolean) | undefined;
  telemetry?: Telemetry | undefined;
  logger?: Logger | undefined;
}

export const DEFAULT_TRIGGER_TICK_MS = 1_000;
/**
 * Reading every trigger row each second was an idle worker's one commit a second (issue 28);
 * a node now sleeps until the earliest row is due, so this only bounds how late a row changed
 * without a NOTIFY is seen.
 */
export const DEFAULT_TRIGGER_MAX_TICK_MS = 30_000;
const TIMED_OUT = Symbol("poll timed out");
export const DEFAULT_POLL_TIMEOUT_MS = 30_000;

/**
 * Runs registered triggers on this node; every node (full and trigger-only) runs one. Nodes do
 * not coordinate other than through `claimTriggerTurn`: each reads the rows on the database
 * clock, and the one whose conditional update wins a due turn runs it.
 */
export class TriggerScheduler {
  readonly #options: TriggerSchedulerOptions;
  readonly #logger: Logger;
  readonly #telemetry: Telemetry;
  /** Triggers with a turn running on this node: a slow poll or fan-out is not started twice. */
  readonly #busy = new Set<string>();
  readonly #work = new Set<Promise<void>>();
  readonly #breakers: TriggerBreakerMonitor;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #ticking = false;
  #wakeRequested = false;
  /** From the last tick's rows: how long until the earliest one is due. */
  #nextDueInMs: number | undefined;
  #offListener: (() => Promise<void>) | undefined;
  #offReconnect: (() => void) | undefined;

  constructor(options: TriggerSchedulerOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#telemetry = options.telemetry ?? defaultTelemetry;
    this.#breakers = new TriggerBreakerMonitor({
      telemetry: this.#telemetry,
      logger: this.#logger,
    });
  }

  /** Stores every registered trigger (their rows are how nodes share state), then ticks. */
  async start(): Promise<void> {
    if (this.#running) return;
    await this.register();
    this.#running = true;
    const { listener } = this.#options;
    if (listener !== undefined) {
      this.#offListener = await listener.listen(TRIGGERS_CHANNEL, () => this.wake());
      this.#offReconnect = listener.onReconnect(() => this.wake());
    }
    this.#armTick(0);
  }

  /** Reads the rows now (after the tick in progress, if any): a trigger changed. */
  wake(): void {
    if (!this.#running) return;
    if (this.#ticking) {
      this.#wakeRequested = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#armTick(0);
  }

  /** Stops ticking and waits for turns in progress. */
  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#offReconnect?.();
    await this.#offListener?.();
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
  }

  /** Upserts the rows of all registered triggers in this node's env. */
  async register(): Promise<void> {
    const now = new Date();
    for (const definition of this.#options.triggers.list()) {
      await upsertTrigger(
        {
          name: definition.name,
          env: this.#options.env,
          kind: definition.kind,
          cron: definition.kind === "cron" ? definition.schedule.expression : null,
          timezone: definition.kind === "cron" ? definition.schedule.timezone : null,
          // The period either way: how often a poll runs, or an interval's window size.
          pollIntervalMs: periodOf(definition),
          workflow: definition.on,
          catchUp: definition.kind === "poll" ? "skip" : definition.catchUp,
          nextFireAt: definition.kind === "poll" ? null : definition.schedule.nextAfter(now),
        },
        this.#options.db,
      );
    }
  }

  /** One pass over all triggers; turns it claims run in the background (see `stop`). */
  async tick(): Promise<void> {
    const names = this.#options.triggers.list().map((definition) => definition.name);
    // Without rows to read the wait is the short one: a disabled node that is enabled again
    // reads within a tick, and checking the mode costs no query.
    this.#nextDueInMs = undefined;
    if (names.length === 0 || this.#options.isEnabled?.() === false) return;
    const { rows, now } = await loadTriggers({ env: this.#options.env, names }, this.#options.db);
    // Every row paused (or none stored yet): nothing is due until a NOTIFY or the longest wait.
    this.#nextDueInMs = nextDueInMs(rows, now) ?? Number.POSITIVE_INFINITY;
    for (const row of rows) {
      const definition = this.#options.triggers.get(row.name);
      if (!definition || row.paused || this.#busy.has(row.name)) continue;
      const turn =
        definition.kind === "poll"
          ? planPollTurn(definition, row.next_fire_at, now)
          : planCronTurn(definition, row.next_fire_at, now);
      if (!turn) continue;
      this.#busy.add(row.name);
      const work = this.#runTurn(definition, row, turn, now)
        .catch((error: unknown) => {
          this.#logger.error({ err: error, trigger: row.name }, "trigger turn failed");
        })
        .finally(() => {
          this.#busy.delete(row.name);
          this.#work.delete(work);
        });
      this.#work.add(work);
    }
  }

  /** Waits for the turns started by earlier ticks; for tests and orderly shutdown. */
  async idle(): Promise<void> {
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
  }

  #armTick(delayMs: number): void {
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      this.#ticking = true;
      this.tick()
        .catch((error: unknown) => {
          // A lost connection: the next tick tries again; nothing is missed that catch-up
          // would not handle.
          this.#nextDueInMs = undefined;
          this.#logger.warn({ err: error }, "trigger scheduler tick failed");
        })
        .finally(() => {
          this.#ticking = false;
          const woken = this.#wakeRequested;
          this.#wakeRequested = false;
          this.#armTick(woken ? 0 : this.#nextWaitMs());
        });
    }, delayMs);
    this.#timer.unref();
  }

  #nextWaitMs(): number {
    const minMs = this.#options.tickMs ?? DEFAULT_TRIGGER_TICK_MS;
    const maxMs = Math.max(
      minMs,
      this.#options.maxTickMs ??
        (this.#options.tickMs === undefined ? DEFAULT_TRIGGER_MAX_TICK_MS : minMs),
    );
    if (this.#nextDueInMs === undefined) return minMs;
    return Math.min(maxMs, Math.max(minMs, this.#nextDueInMs));
  }

  async #runTurn(
    definition: TriggerDefinition,
    row: TriggerRow,
    turn: TriggerTurn,
    now: Date,
  ): Promise<void> {
    const won = await claimTriggerTurn(
      { triggerId: row.id, due: turn.due, next: turn.next, fired: turn.fire },
      this.#options.db,
    );
    if (!won) return;
    switch (definition.kind) {
      case "cron":
      case "interval":
        if (turn.missed > 0) {
          this.#logger.warn(
            { trigger: row.name, missed: turn.missed, catch_up: definition.catchUp },
            `${definition.kind} windows passed while no node ran them`,
          );
        }
        if (turn.fires.length === 0) {
          if (turn.due !== null) this.#skipped(row.name, definition.kind, "missed");
          return;
        }
        // One after the other, oldest first: a run_all backlog starts in window order. Each
        // window is its own firing, deduplicated by its scheduled instant.
        for (const window of turn.fires) {
          await this.#fire(definition, row, definition.kind, undefined, window);
        }
        return;
      case "poll": {
        if (!(await this.#breakerAllows(definition, row, now))) return;
        const decision = await this.#poll(definition, row);
        switch (decision.kind) {
          case "skip":
            return;
          case "fire":
            await this.#fire(definition, row, "poll", decision.context, null);
            return;
          default:
            return assertNever(decision, "poll decision");
        }
      }
      default:
        assertNever(definition, "trigger kind");
    }
  }

  /**
   * An open breaker skips the turn before the poll runs: a poll whose workflows keep failing
   * would otherwise fire the same context again every interval. Manual fires are not gated, so
   * an operator's fire can probe a fix (and its success closes the breaker).
   */
  async #breakerAllows(
    definition: PollTriggerDefinition,
    row: TriggerRow,
    now: Date,
  ): Promise<boolean> {
    if (definition.circuitBreaker === null) return true;
    const state = await readTriggerBreaker(
      { triggerId: row.id, settings: definition.circuitBreaker, now },
      this.#options.db,
    );
    this.#breakers.observe(row.name, state);
    if (!state.allowsFire) this.#skipped(row.name, "poll", "circuit_open");
    return state.allowsFire;
  }

  async #poll(definition: PollTriggerDefinition, row: TriggerRow): Promise<TriggerPollResult> {
    let raw: TriggerPollResult | boolean | typeof TIMED_OUT;
    const timeoutMs =
      definition.pollTimeoutMs ?? this.#options.pollTimeoutMs ?? DEFAULT_POLL_TIMEOUT_MS;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    try {
      raw = await Promise.race([
        Promise.resolve(
          definition.poll({ triggerName: row.name, env: row.env, signal: abort.signal }),
        ),
        new Promise<typeof TIMED_OUT>((resolve) => {
          timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
        }),
      ]);
    } catch (error) {
      this.#logger.warn({ err: error, trigger: row.name }, "poll function threw; skipping turn");
      this.#skipped(row.name, "poll", "poll_error");
      return TriggerResult.skip();
    } finally {
      clearTimeout(timer);
    }
    if (raw === TIMED_OUT) {
      // Abandoned, not awaited: the turn ends here, so the trigger's next turn polls afresh.
      abort.abort(new Error(`poll timed out after ${timeoutMs} ms`));
      this.#logger.warn(
        { trigger: row.name, timeout_ms: timeoutMs },
        "poll function timed out; abandoning this turn",
      );
      this.#skipped(row.name, "poll", "poll_timeout");
      return TriggerResult.skip();
    }
    const decision = pollDecision(raw);
    if (decision === undefined) {
      // Plain JavaScript can return anything: treated like a poll that threw, not a crashed tick.
      this.#logger.warn(
        { trigger: row.name },
        "poll function returned neither a boolean nor TriggerResult.fire()/skip(); skipping turn",
      );
      this.#skipped(row.name, "poll", "poll_error");
      return TriggerResult.skip();
    }
    if (decision.kind === "skip") this.#skipped(row.name, "poll", "condition");
    return decision;
  }

  async #fire(
    definition: TriggerDefinition,
    row: TriggerRow,
    source: "cron" | "interval" | "poll",
    context: Record<string, unknown> | undefined,
    scheduledTime: Date | null,
  ): Promise<void> {
    const result = await fanOutFiring({
      db: this.#options.db,
      trigger: {
        id: row.id,
        name: row.name,
        env: row.env,
        workflow: definition.on,
        fanOut: definition.fanOut,
        allowConcurrent: definition.allowConcurrent,
        schedule:
          definition.kind !== "poll"
            ? {
                expression: definition.schedule.expression,
                timezone: definition.schedule.timezone,
              }
            : null,
      },
      source,
      context,
      scheduledTime,
      firedBy: this.#options.node,
      startWorkflow: this.#options.startWorkflow,
      workflows: this.#options.workflows,
      telemetry: this.#telemetry,
      logger: this.#logger,
    });
    switch (result.kind) {
      case "deduped":
        return;
      case "fired":
        if (source === "poll") {
          await markTriggerFired({ triggerId: row.id, at: new Date() }, this.#options.db);
        }
        if (result.primaryError !== null) {
          this.#logger.error(
            { err: result.primaryError, trigger: row.name, firing_id: result.firingId },
            "trigger's primary workflow failed to start",
          );
        }
        return;
      default:
        return assertNever(result, "fan-out result");
    }
  }

  #skipped(trigger: string, source: string, reason: string): void {
    this.#telemetry.emit("cyclium.trigger.skipped", { count: 1 }, { trigger, source, reason });
  }
}

/**
 * Milliseconds (database clock) until the earliest unpaused row is due, a few past it so the
 * read lands after the instant; 0 for a row never claimed. Undefined without such rows.
 */
export function nextDueInMs(rows: readonly TriggerRow[], now: Date): number | undefined {
  let earliest: number | undefined;
  for (const row of rows) {
    if (row.paused) continue;
    const due = row.next_fire_at === null ? 0 : row.next_fire_at.getTime() - now.getTime() + 5;
    earliest = earliest === undefined ? due : Math.min(earliest, due);
  }
  return earliest === undefined ? undefined : Math.max(0, earliest);
}

function periodOf(definition: TriggerDefinition): number | null {
  switch (definition.kind) {
    case "poll":
      return definition.pollIntervalMs;
    case "interval":
      return definition.schedule.intervalMs;
    case "cron":
      return null;
    default:
      return assertNever(definition, "trigger kind");
  }
}
