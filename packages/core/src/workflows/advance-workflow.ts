import { assertNever } from "../errors/index";
import type { TerminalEpisodeStatus } from "../episodes/episode-events";
import {
  isTerminalInstanceStatus,
  pendingStep,
  type StepState,
  type StepStates,
  type WorkflowInstanceStatus,
} from "./step-state";
import type { WorkflowDefinition } from "./workflow-definition";

/**
 * The workflow state machine as pure functions of (definition, snapshot) -> transition, so every
 * rule is unit-tested without a database and the engine only persists what they return. A `null`
 * transition means "nothing to do": a replayed event, a stale attempt, a finished instance.
 */
export interface WorkflowSnapshot {
  status: WorkflowInstanceStatus;
  steps: StepStates;
}

export interface WorkflowTransition extends WorkflowSnapshot {
  errorMessage: string | null;
  /** Steps moved to `running` by this transition: the engine starts their episodes. */
  start: { step: string; attempt: number }[];
  /** Episodes of steps this transition cancelled. */
  cancelEpisodes: string[];
}

const MAX_BACKOFF_MS = 300_000;

/** A new instance: every step without dependencies runs, the rest wait. */
export function initialTransition(definition: WorkflowDefinition, now: Date): WorkflowTransition {
  const steps: StepStates = {};
  for (const step of definition.steps) steps[step.name] = pendingStep();
  return startReady(definition, { status: "running", steps }, now, null);
}

export interface StepEpisodeEnd {
  step: string;
  episodeId: string | null;
  status: TerminalEpisodeStatus;
  error?: string | null | undefined;
}

/** An `episode.completed` / `episode.failed` event (or a start that threw) for one step. */
export function applyEpisodeEnd(
  definition: WorkflowDefinition,
  snapshot: WorkflowSnapshot,
  end: StepEpisodeEnd,
  now: Date,
): WorkflowTransition | null {
  if (isTerminalInstanceStatus(snapshot.status)) return null;
  const current = snapshot.steps[end.step];
  if (!current || current.status !== "running") return null;
  // An event from an earlier attempt's episode (e.g. a late failure after a retry started).
  if (current.episodeId !== null && end.episodeId !== null && current.episodeId !== end.episodeId) {
    return null;
  }
  const episodeId = end.episodeId ?? current.episodeId;
  const at = now.toISOString();
  if (end.status === "completed") {
    const steps = withStep(snapshot.steps, end.step, {
      ...current,
      status: "done",
      episodeId,
      finishedAt: at,
      error: null,
    });
    return startReady(definition, { status: snapshot.status, steps }, now, null);
  }
  const error = end.error ?? `step ${end.step} ${end.status}`;
  const failed: StepState = { ...current, episodeId, finishedAt: at, error };
  switch (definition.failurePolicy) {
    case "retry":
      if (current.attempt < definition.maxStepAttempts) {
        const delay = Math.min(
          definition.retryBackoffMs * 2 ** (current.attempt - 1),
          MAX_BACKOFF_MS,
        );
        const steps = withStep(snapshot.steps, end.step, {
          ...failed,
          status: "retrying",
          retryAt: new Date(now.getTime() + delay).toISOString(),
        });
        return settle({ status: snapshot.status, steps }, null);
      }
      return abort(snapshot, end.step, failed, now);
    case "pause": {
      const steps = withStep(snapshot.steps, end.step, { ...failed, status: "paused" });
      return settle({ status: snapshot.status, steps }, error);
    }
    case "abort":
      return abort(snapshot, end.step, failed, now);
    default:
      return assertNever(definition.failurePolicy, "workflow failure policy");
  }
}

/** Steps whose episode has been created: remembered so stale events can be told apart. */
export function recordEpisodeId(
  snapshot: WorkflowSnapshot,
  step: string,
  attempt: number,
  episodeId: string,
): WorkflowTransition | null {
  const current = snapshot.steps[step];
  if (
    isTerminalInstanceStatus(snapshot.status) ||
    !current ||
    current.status !== "running" ||
    current.attempt !== attempt ||
    current.episodeId !== null
  ) {
    return null;
  }
  const steps = withStep(snapshot.steps, step, { ...current, episodeId });
  return { ...snapshot, steps, errorMessage: null, start: [], cancelEpisodes: [] };
}

/** `retrying` steps whose backoff has passed run their next attempt. */
export function startDueRetries(
  definition: WorkflowDefinition,
  snapshot: WorkflowSnapshot,
  now: Date,
): WorkflowTransition | null {
  if (isTerminalInstanceStatus(snapshot.status)) return null;
  const due = Object.entries(snapshot.steps).filter(
    ([, state]) =>
      state.status === "retrying" &&
      state.retryAt !== null &&
      Date.parse(state.retryAt) <= now.getTime(),
  );
  if (due.length === 0) return null;
  let steps = snapshot.steps;
  const start: WorkflowTransition["start"] = [];
  for (const [name, state] of due) {
    steps = withStep(steps, name, run(state, now));
    start.push({ step: name, attempt: state.attempt + 1 });
  }
  return { ...settle({ status: snapshot.status, steps }, null), start };
}

/** An operator's retry of a paused step (SPEC section 12, `pause` policy). */
export function retryPausedStep(
  definition: WorkflowDefinition,
  snapshot: WorkflowSnapshot,
  step: string,
  now: Date,
): WorkflowTransition | null {
  const current = snapshot.steps[step];
  if (isTerminalInstanceStatus(snapshot.status) || current?.status !== "paused") return null;
  const steps = withStep(snapshot.steps, step, run(current, now));
  return {
    ...settle({ status: snapshot.status, steps }, null),
    start: [{ step, attempt: current.attempt + 1 }],
  };
}

/**
 * An operator's resume of a blocked instance: its paused steps are accepted as they are (marked
 * `done`, their error kept for the record) and the steps depending on them start.
 */
export function resumePausedSteps(
  definition: WorkflowDefinition,
  snapshot: WorkflowSnapshot,
  now: Date,
): WorkflowTransition | null {
  if (snapshot.status !== "blocked") return null;
  let steps = snapshot.steps;
  for (const [name, state] of Object.entries(snapshot.steps)) {
    if (state.status === "paused") steps = withStep(steps, name, { ...state, status: "done" });
  }
  return startReady(definition, { status: "running", steps }, now, null);
}

/** Cancels every unfinished step and the instance. */
export function cancelInstance(snapshot: WorkflowSnapshot, now: Date): WorkflowTransition | null {
  if (isTerminalInstanceStatus(snapshot.status)) return null;
  const { steps, cancelEpisodes } = cancelUnfinished(snapshot.steps, now);
  return { status: "cancelled", steps, errorMessage: "cancelled", start: [], cancelEpisodes };
}

function abort(
  snapshot: WorkflowSnapshot,
  stepName: string,
  failed: StepState,
  now: Date,
): WorkflowTransition {
  const { steps, cancelEpisodes } = cancelUnfinished(
    withStep(snapshot.steps, stepName, { ...failed, status: "failed" }),
    now,
  );
  return {
    status: "failed",
    steps,
    errorMessage: `step ${stepName} failed: ${failed.error ?? "unknown error"}`,
    start: [],
    cancelEpisodes,
  };
}

function cancelUnfinished(
  states: StepStates,
  now: Date,
): { steps: StepStates; cancelEpisodes: string[] } {
  const steps: StepStates = {};
  const cancelEpisodes: string[] = [];
  for (const [name, state] of Object.entries(states)) {
    if (state.status === "done" || state.status === "failed" || state.status === "cancelled") {
      steps[name] = state;
      continue;
    }
    if (state.status === "running" && state.episodeId !== null)
      cancelEpisodes.push(state.episodeId);
    steps[name] = { ...state, status: "cancelled", finishedAt: now.toISOString(), retryAt: null };
  }
  return { steps, cancelEpisodes };
}

/** Moves every pending step whose dependencies are all done to `running`, then settles. */
function startReady(
  definition: WorkflowDefinition,
  snapshot: WorkflowSnapshot,
  now: Date,
  errorMessage: string | null,
): WorkflowTransition {
  let steps = snapshot.steps;
  const start: WorkflowTransition["start"] = [];
  for (const step of definition.steps) {
    const state = steps[step.name];
    if (state?.status !== "pending") continue;
    if (!step.dependsOn.every((dependency) => steps[dependency]?.status === "done")) continue;
    steps = withStep(steps, step.name, run(state, now));
    start.push({ step: step.name, attempt: state.attempt + 1 });
  }
  return { ...settle({ status: snapshot.status, steps }, errorMessage), start };
}

/**
 * The instance status that follows from its steps: `done` when all are done, `blocked` while a
 * step waits for an operator and nothing else can move, `running` otherwise.
 */
function settle(snapshot: WorkflowSnapshot, errorMessage: string | null): WorkflowTransition {
  const states = Object.values(snapshot.steps);
  let status: WorkflowInstanceStatus = "running";
  if (states.every((state) => state.status === "done")) status = "done";
  else if (states.some((state) => state.status === "paused")) status = "blocked";
  return { status, steps: snapshot.steps, errorMessage, start: [], cancelEpisodes: [] };
}

function run(state: StepState, now: Date): StepState {
  return {
    ...state,
    status: "running",
    attempt: state.attempt + 1,
    episodeId: null,
    startedAt: now.toISOString(),
    finishedAt: null,
    retryAt: null,
  };
}

function withStep(steps: StepStates, name: string, state: StepState): StepStates {
  return { ...steps, [name]: state };
}
