import type { Episode } from "../episodes/episode-row";

/** What running one episode here came to. */
export type EpisodeRunResult =
  /** `requestCompleted`: its trigger request was marked completed in the same statement. */
  | { status: "completed" | "failed"; episode: Episode; requestCompleted?: true }
  /** Another node holds the episode's claim (it runs it, or recovery is at it). */
  | { status: "busy" }
  /** The episode was no longer pending (cancelled, expired, started elsewhere). */
  | { status: "not_pending" }
  /** Left `running`: the claim was lost, the node stopped, or a write was fenced. */
  | { status: "left_running"; reason: "aborted" | "fenced" | "interrupted" }
  /** The database failed under us; the episode is left for recovery. */
  | { status: "error"; error: unknown };
