import { assertNever } from "../errors/index";
import type { DispatchSettled } from "../deferred/index";
import type { QueuedEpisodeResult } from "./actor-queue";

/** What a dispatched episode's end leaves to do with its trigger request. */
export function dispatchSettled(result: QueuedEpisodeResult): DispatchSettled {
  switch (result.kind) {
    case "completed":
    case "failed":
      return { kind: result.requestCompleted === true ? "request_completed" : "ran" };
    case "busy":
    case "not_pending":
    case "left_running":
    case "shed":
      return { kind: "ran" };
    // Its request was completed and a new one written, in the hand-back's or retry's statement.
    case "handed_back":
    case "retry_scheduled":
    case "waiting":
      return { kind: "request_completed" };
    // Its request went back to pending with the episode, in the unstart's statement.
    case "unstarted":
      return { kind: "request_released" };
    case "limited":
      return { kind: "limited", wait: result.wait };
    case "not_started":
    case "error":
      return { kind: "not_run" };
    default:
      return assertNever(result, "queued episode result");
  }
}
