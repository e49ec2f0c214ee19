import type { Queryable } from "@cyclium/core/console";
import { findLiveEpisodeId, validateExpectationInput, CycliumError } from "@cyclium/core/console";
import { describeInputIssues } from "../errors/input-issues";
import type { TConsoleRuntime } from "../runtime/console-runtime";

export interface TFireExpectationResult {
  episodeId: string;
  /** False when the idempotency key had already created this episode (a double click). */
  created: boolean;
  /** True on a trigger_only node: a worker executes it through a trigger request. */
  deferred: boolean;
}

/**
 * A manual fire from the console. The idempotency key comes from the browser, one per click
 * intent, so a double click or a retried request lands on the dedupe key
 * `manual:{actor}:{expectation}:{key}` and creates one episode; the second call answers with
 * the same episode.
 */
export async function fireExpectation(options: {
  runtime: TConsoleRuntime;
  db: Queryable;
  actorId: string;
  expectationId: string;
  idempotencyKey: string;
  input?: unknown;
  /** A run at a later time, and its priority on the cluster's queue (SPEC section 16). */
  timing?: { runAt?: Date; delayMs?: number; priority?: number };
}): Promise<TFireExpectationResult> {
  const checked = validateExpectationInput({
    registry: options.runtime.registry,
    actorId: options.actorId,
    expectationId: options.expectationId,
    input: options.input ?? {},
  });
  if (checked.kind === "invalid") {
    // The form checked it already; a stale tab or a hand-made request lands here.
    throw new CycliumError(
      "invalid_input",
      `Invalid input for ${options.actorId}/${options.expectationId}: ${describeInputIssues(checked.issues)}`,
      { details: { issues: checked.issues } },
    );
  }
  const result = await options.runtime.fire({
    actorId: options.actorId,
    expectationId: options.expectationId,
    triggerType: "manual",
    idempotencyKey: options.idempotencyKey,
    // The schema's parsed output (defaults applied), as the client's fire stores it.
    input: checked.kind === "valid" ? checked.input : (options.input ?? {}),
    ...options.timing,
  });
  switch (result.kind) {
    case "created":
      return { episodeId: result.episodeId, created: true, deferred: result.deferred };
    case "dropped":
      // An expected outcome in core; the console answers it as a refusal (409 busy).
      throw new CycliumError(
        "busy",
        `${options.actorId}'s queue is full and it drops overflow; nothing was created.`,
      );
    case "deduped":
      break;
  }
  const existing = await findLiveEpisodeId(result.dedupeKey, options.db);
  if (existing === undefined) {
    throw new CycliumError("conflict", "The episode for this fire was just archived; fire again.");
  }
  return { episodeId: existing, created: false, deferred: true };
}
