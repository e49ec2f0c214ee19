import type { Queryable } from "../db/index";
import type { FencedFindingResult, StrategyFindingInput } from "../findings/strategy-finding";
import type { Logger } from "../telemetry/index";
import type { WriteOutputResult } from "../outputs/write-output";

/** What one step consumed. `turns` defaults to 1 per step, `tokens` to 0. */
export interface StepUsage {
  turns?: number;
  tokens?: number;
}

/**
 * What `step` returns. Exactly one of the three keys `continue`, `done`, `fail` is present:
 *
 * - `{ continue: nextState }` — journal the step and call `step(nextState)` again;
 * - `{ done: true, result? }` — the episode is `completed` with `result`;
 * - `{ fail: true, errorClass, message }` — the episode is `failed` with that error.
 *
 * `usage` is added to the episode's `turns_used` / `tokens_used`; `data` is stored with the step
 * in the journal (`cyclium_episode_steps.data`) for the console's timeline. Use the `next`,
 * `done` and `fail` helpers below rather than writing the objects by hand.
 */
export type StepResult<TState, TResult = unknown> =
  | { continue: TState; usage?: StepUsage; data?: unknown }
  | { done: true; result?: TResult; usage?: StepUsage; data?: unknown }
  | {
      fail: true;
      errorClass: string;
      message: string;
      usage?: StepUsage;
      data?: unknown;
      /** false: final, even with attempts left (the expectation's `retry`). */
      retry?: false;
    }
  | { wait: WaitRequest; state?: TState; usage?: StepUsage; data?: unknown };

/**
 * What a step waits for (SPEC section 17): a time (`ms` from now or `until` an instant), or a
 * signal the expectation declares (`timeoutMs` from now; none: wait as long as it takes). Use
 * the `wait` and `waitFor` helpers below.
 */
export type WaitRequest =
  | { ms: number; until?: undefined; signal?: undefined }
  | { until: Date | string; ms?: undefined; signal?: undefined }
  | { signal: string; timeoutMs?: number | undefined; ms?: undefined; until?: undefined };

/**
 * Why the step runs: set for the first step after a wait (`ctx.wakeup`), undefined otherwise.
 * `slept`: the time of a `wait` came; `signal`: a `waitFor`'s signal arrived with `payload`
 * (validated against the expectation's schema when it was sent); `timeout`: a `waitFor`'s
 * `timeoutMs` passed with no signal.
 */
export type Wakeup =
  | { kind: "slept"; since: Date }
  | { kind: "signal"; signal: string; payload: unknown; sentBy: string; since: Date }
  | { kind: "timeout"; signal: string; since: Date };

/** Facts about the episode a strategy runs, read-only. */
export interface EpisodeInfo {
  id: string;
  actorId: string;
  expectationId: string;
  triggerType: string;
  /** The episode's run number: 1, then +1 for every `restart` recovery. */
  attempt: number;
  dedupeKey: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
  workflowInstanceId: string | null;
  workflowStep: string | null;
  /** True when this run was handed over by recovery. */
  recovered: boolean;
  /**
   * Whatever recovery handed over to resume from (e.g. a checkpoint); `{ wait: stepNo }` for the
   * run that resumes after a wait (SPEC 17); undefined otherwise.
   */
  resume: unknown;
}

export interface StrategyContext {
  /**
   * Fires when the node loses the work claim, when the wall budget runs out, or when the node
   * stops for good. Pass it to every await that can take long (fetch, queries with a timeout).
   */
  readonly signal: AbortSignal;
  readonly episode: EpisodeInfo;
  /** Set for the first step after a `wait` / `waitFor`: what woke the episode (SPEC 17). */
  readonly wakeup: Wakeup | undefined;
  /** 0 during `init`, then 1, 2, ... for each `step`. */
  readonly stepNo: number;
  /** Usage recorded so far (before the current step). */
  readonly usage: { readonly turns: number; readonly tokens: number };
  /** The node's pool, for strategies that read or write application tables. */
  readonly db: Queryable;
  readonly logger: Logger;
  /**
   * True while this node still holds the episode's claim. Call it right before a side effect
   * outside cyclium's tables (SPEC 12, "fence before side effects"); always true without claims.
   */
  holdsClaim(): Promise<boolean>;
  /**
   * Saves `state` as the episode's checkpoint for this step, tagged with `phase` and the
   * strategy's `checkpointVersion` (SPEC 12). A `restart` recovery resumes from the newest one
   * with step `stepNo + 1` instead of running `init` again. The state must survive JSON. Fenced:
   * resolves `false` (nothing saved) once this node no longer holds the claim.
   */
  checkpoint(phase: string, state: unknown): Promise<boolean>;
  /**
   * Raises (or refreshes) a finding from this episode, in its env, only while this node still
   * holds the claim: `{ kind: "written", finding }`, or `{ kind: "fenced" }` with nothing written
   * (SPEC 12); a clear with no active finding answers `{ kind: "not_found" }`.
   */
  raiseFinding(finding: StrategyFindingInput): Promise<FencedFindingResult>;
  /** Clears the episode env's active finding with this key, fenced like `raiseFinding`. */
  clearFinding(findingKey: string): Promise<FencedFindingResult>;
  /**
   * The output router (issue 20): writes `value` exactly once per output key, across re-runs
   * and nodes. With a key, the key is folded with the episode's env (`key@env`); without one it
   * is derived from the episode's dedupe key (already env-folded), or `episode:{id}` when it has
   * none. Resolves `written`, `existed` (an earlier attempt or node wrote it: `output` is that
   * row) or `fenced` (this node no longer holds the claim at its attempt: nothing written).
   */
  output(value: unknown): Promise<WriteOutputResult>;
  output(key: string, value: unknown): Promise<WriteOutputResult>;
}

/**
 * The code an episode runs, as a step loop (SPEC section 2): `init` once, then `step` until it
 * returns done or fail. State lives in memory between steps; budgets are the runner's business.
 * Methods (not function properties) on purpose: TypeScript then lets a strategy for a specific
 * input be registered where a strategy for `unknown` input is expected.
 */
export interface Strategy<TInput = unknown, TState = unknown, TResult = unknown> {
  /** The schema version written with checkpoints; 1 when absent. Bump it when the state changes. */
  readonly checkpointVersion?: number;
  /**
   * Turns a checkpoint written by an older `checkpointVersion` into today's state; return
   * undefined (or throw) when it cannot, and the restarted episode runs `init` again instead.
   */
  migrateCheckpoint?(
    state: unknown,
    fromVersion: number,
  ): TState | undefined | Promise<TState | undefined>;
  /**
   * Called instead of failing with `budget_exceeded` when the turn or token budget runs out before
   * a step (never for wall time, which must stay a hard limit). Return `{ done: true, result }` to
   * complete the episode gracefully (e.g. with a partial answer); undefined keeps the failure.
   */
  onBudgetExhausted?(
    state: TState,
    ctx: StrategyContext,
    exhausted: { budget: "turns" | "tokens"; message: string },
  ):
    | { done: true; result?: TResult }
    | undefined
    | Promise<{ done: true; result?: TResult } | undefined>;
  init(ctx: StrategyContext, input: TInput): TState | Promise<TState>;
  step(
    state: TState,
    ctx: StrategyContext,
  ): StepResult<TState, TResult> | Promise<StepResult<TState, TResult>>;
}

/**
 * Any strategy, as registries and the runner see it. Assignable from every `Strategy<I, S, R>`
 * thanks to method parameter bivariance; the runner validates nothing about the input, the
 * strategy does (e.g. with zod in `init`).
 */
export type AnyStrategy = Strategy<unknown, unknown, unknown>;

/** `{ continue: state }`: journal this step and call `step(state)` again. */
export function next<TState>(
  state: TState,
  usage?: StepUsage,
  data?: unknown,
): { continue: TState; usage?: StepUsage; data?: unknown } {
  return { continue: state, ...(usage ? { usage } : {}), ...(data === undefined ? {} : { data }) };
}

/** `{ done: true, result }`: the episode is completed. */
export function done<TResult>(
  result?: TResult,
  usage?: StepUsage,
): { done: true; result?: TResult; usage?: StepUsage } {
  return { done: true, ...(result === undefined ? {} : { result }), ...(usage ? { usage } : {}) };
}

/**
 * `{ fail: true, errorClass, message }`: this attempt failed with that error. With attempts left
 * under the expectation's `retry`, the episode runs again after a backoff; `{ retry: false }`
 * makes the failure final (a bad input, a refusal that will not change).
 */
export function fail(
  errorClass: string,
  message: string,
  options?: StepUsage & { retry?: false },
): { fail: true; errorClass: string; message: string; usage?: StepUsage; retry?: false } {
  const { retry, ...usage } = options ?? {};
  return {
    fail: true,
    errorClass,
    message,
    ...(Object.keys(usage).length > 0 ? { usage } : {}),
    ...(retry === false ? { retry } : {}),
  };
}

/**
 * `{ wait: { ms } | { until }, state }`: the episode checkpoints `state` and goes `waiting`,
 * holding no slot, claim or lease, until the time comes; then any full node calls
 * `step(state)` with `ctx.wakeup = { kind: "slept" }` (same attempt). Without `state`, the step
 * is called again with the state it had. Time spent waiting does not count against `maxWallMs`.
 */
export function wait<TState>(
  options: ({ ms: number } | { until: Date | string }) & { state?: TState; usage?: StepUsage },
): { wait: WaitRequest; state?: TState; usage?: StepUsage } {
  const { state, usage } = options;
  const request: WaitRequest = "ms" in options ? { ms: options.ms } : { until: options.until };
  return {
    wait: request,
    ...(state === undefined ? {} : { state }),
    ...(usage === undefined ? {} : { usage }),
  };
}

/**
 * `{ wait: { signal, timeoutMs }, state }`: as `wait`, until the signal (declared in the
 * expectation's `signals`) arrives (`ctx.wakeup.kind === "signal"`, with its payload) or
 * `timeoutMs` passes (`"timeout"`). A signal sent before the wait is kept and consumed here.
 */
export function waitFor<TState>(options: {
  signal: string;
  timeoutMs?: number;
  state?: TState;
  usage?: StepUsage;
}): { wait: WaitRequest; state?: TState; usage?: StepUsage } {
  const { state, usage, signal, timeoutMs } = options;
  return {
    wait: { signal, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
    ...(state === undefined ? {} : { state }),
    ...(usage === undefined ? {} : { usage }),
  };
}

/** Duck-typed check used when a strategy comes from configuration rather than the type system. */
export function isStrategy(value: unknown): value is AnyStrategy {
  return (
    typeof value === "object" &&
    value !== null &&
    "init" in value &&
    typeof value.init === "function" &&
    "step" in value &&
    typeof value.step === "function"
  );
}
