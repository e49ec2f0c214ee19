/**
 * How the engine starts a step's episode. The runtime's `ActorHost.fire` satisfies it; the
 * engine depends on this shape only, so it can be tested and wired without the runtime.
 * `idempotencyKey` is `workflow:{instance}:{step}:{attempt}`: a start replayed after a crash
 * dedupes instead of creating a second episode.
 */
export interface StartStepRequest {
  actorId: string;
  expectationId: string;
  triggerType: "workflow";
  input: unknown;
  idempotencyKey: string;
  workflowInstanceId: string;
  workflowStep: string;
  /** A delayed trigger fire's root steps (SPEC section 16): not started before, at a priority. */
  runAt?: Date | undefined;
  delayMs?: number | undefined;
  priority?: number | undefined;
}

/** When a fired workflow's root steps may start, and their priority (SPEC section 16). */
export interface StepTiming {
  runAt?: Date | undefined;
  delayMs?: number | undefined;
  priority?: number | undefined;
}

/** `ActorHost.fire`'s result, as far as the engine reads it (discriminated by `kind`). */
export type StartStepResult =
  | { kind: "created"; episodeId: string }
  | { kind: "deduped" }
  | { kind: "dropped"; reason: string };

export type StepStarter = (request: StartStepRequest) => Promise<StartStepResult>;

/** Cancels a running step's episode when its workflow is aborted or cancelled. */
export type EpisodeCanceller = (episodeId: string) => Promise<unknown>;

export function stepIdempotencyKey(instanceId: string, step: string, attempt: number): string {
  return `workflow:${instanceId}:${step}:${attempt}`;
}
