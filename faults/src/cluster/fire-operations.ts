import { setTimeout as sleep } from "node:timers/promises";
import { isCycliumError } from "@cyclium/core";
import type { ActorHost } from "@cyclium/core/testing";
import type { HistoryWriter } from "../history/history-writer";
import type { FireBatchResult, TFireBatch } from "./commands";
import { ACTORS, WORK_EXPECTATION } from "./fault-actors";

export type FireOutcome = "ok" | "fail" | "info";

interface FireOptions {
  host: Pick<ActorHost, "fire">;
  history: HistoryWriter;
  actor: string;
  key: string;
  input: Record<string, unknown>;
  /** Retry an unknown outcome with the same idempotency key until this much time has passed. */
  retryForMs: number;
}

/** Pause between tries of a fire whose outcome was unknown (the database is restarting, say). */
const RETRY_DELAY_MS = 250;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One logical fire with its idempotency key, as a careful client does it: an error that leaves
 * the outcome unknown (a lost connection, a failed COMMIT) is recorded `info` and retried with
 * the same key, so an earlier try that did commit turns the retry into a dedupe, never a second
 * episode. A CycliumError is a definite refusal (`fail`).
 */
export async function fireWithRetry(options: FireOptions): Promise<FireOutcome> {
  const { host, history, actor, key, input } = options;
  const deadline = performance.now() + options.retryForMs;
  for (let attempt = 1; ; attempt += 1) {
    const base = { op: "fire", key, actor, try: attempt } as const;
    history.write({ ...base, type: "invoke" });
    try {
      const result = await host.fire({
        actorId: actor,
        expectationId: WORK_EXPECTATION,
        triggerType: "manual",
        idempotencyKey: key,
        input,
      });
      switch (result.kind) {
        case "created":
          history.write({ ...base, type: "ok", episodeId: result.episodeId });
          break;
        case "deduped":
          history.write({ ...base, type: "ok", deduped: true });
          break;
        case "dropped":
          history.write({ ...base, type: "fail", error: `dropped: ${result.reason}` });
          break;
      }
      return "ok";
    } catch (error) {
      if (isCycliumError(error)) {
        history.write({ ...base, type: "fail", error: `${error.code}: ${error.message}` });
        return "fail";
      }
      history.write({ ...base, type: "info", error: message(error) });
      if (performance.now() > deadline) return "info";
      await sleep(RETRY_DELAY_MS);
    }
  }
}

function actorOf(batch: TFireBatch, index: number): string {
  if (batch.actors) return batch.actors[index % batch.actors.length] ?? ACTORS.restart;
  const toFail = batch.failEvery > 0 && index % batch.failEvery === batch.failEvery - 1;
  return toFail ? ACTORS.fail : ACTORS.restart;
}

/**
 * The writer's load (and a worker's local bursts, scenarios 8-10): `count` fires paced at `ratePerSec` with at most `concurrency` in flight.
 * Paced rather than all at once so that faults land while fires are still arriving.
 */
export async function fireBatch(
  host: Pick<ActorHost, "fire">,
  history: HistoryWriter,
  batch: TFireBatch,
): Promise<FireBatchResult> {
  const tally: FireBatchResult = { ok: 0, failed: 0, unknown: 0 };
  const startedAt = performance.now();
  let nextIndex = 0;
  const lane = async (): Promise<void> => {
    for (;;) {
      const index = nextIndex;
      if (index >= batch.count) return;
      nextIndex += 1;
      const due = startedAt + (index * 1000) / batch.ratePerSec - performance.now();
      if (due > 0) await sleep(due);
      const outcome = await fireWithRetry({
        host,
        history,
        actor: actorOf(batch, index),
        key: `${batch.prefix}-${index}`,
        input: batch.input,
        retryForMs: batch.retryForMs,
      });
      if (outcome === "ok") tally.ok += 1;
      else if (outcome === "fail") tally.failed += 1;
      else tally.unknown += 1;
    }
  };
  await Promise.all(Array.from({ length: batch.concurrency }, lane));
  return tally;
}
