import type { Episode } from "../episodes/episode-row";
import { assertNever } from "../errors/index";
import type { LimitWait } from "../limits/index";

/** What running one episode here came to, told apart by `kind`. */
export type EpisodeRunResult =
  /** `requestCompleted`: its trigger request was marked completed in the same statement. */
  | { kind: "completed" | "failed"; episode: Episode; requestCompleted?: true }
  /** Another node holds the episode's claim (it runs it, or recovery is at it). */
  | { kind: "busy" }
  /** The episode was no longer pending (cancelled, expired, started elsewhere). */
  | { kind: "not_pending" }
  /** Left `running`: the claim was lost, the node stopped, or a write was fenced. */
  | { kind: "left_running"; reason: "aborted" | "fenced" | "interrupted" }
  /**
   * Started ahead of a free slot, given none, its strategy never run: pending again, its claim
   * released and its trigger request pending (unstartEpisodes).
   */
  | { kind: "unstarted" }
  /**
   * Its node stopped before it finished: pending again at attempt + 1, its claim released, a new
   * trigger request for any full node (handBackEpisodes); its dispatching request completed.
   */
  | { kind: "handed_back" }
  /**
   * The attempt failed with attempts left (SPEC section 16): pending again at attempt + 1, its
   * request completed and a new one due after the backoff, in the end's statement.
   */
  | { kind: "retry_scheduled"; episode: Episode }
  /**
   * A cluster-wide limit was full (SPEC section 16): not started, still pending, nothing taken;
   * its trigger request goes back to pending with the refusal kept.
   */
  | { kind: "limited"; wait: LimitWait }
  /**
   * The step returned a wait (SPEC section 17): the episode is `waiting`, its claim and lease
   * released, its dispatching request completed and the request that resumes it written.
   */
  | { kind: "waiting"; episode: Episode }
  /** The database failed under us; the episode is left for recovery. */
  | { kind: "error"; error: unknown };

/** Whether the run started the episode here (so its end freed a limited slot). */
export function ranHere(result: EpisodeRunResult): boolean {
  switch (result.kind) {
    case "busy":
    case "not_pending":
    case "limited":
      return false;
    case "completed":
    case "failed":
    case "left_running":
    case "unstarted":
    case "handed_back":
    case "retry_scheduled":
    case "waiting":
    case "error":
      return true;
    default:
      return assertNever(result, "episode run result");
  }
}
