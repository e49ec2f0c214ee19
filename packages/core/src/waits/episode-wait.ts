import type { EpisodeWaitModel } from "@cyclium/db/models";
import type { FieldsOf, Narrow, RowOf } from "../db/row-of";

/**
 * What a parked episode waits for, as the runner hands it over: for `delayMs` or until an
 * instant, or for a signal with an optional timeout. Delays stay relative so that the database's
 * clock, which every due time is compared with, turns them into instants.
 */
export type EpisodeWaitRequest =
  | { kind: "sleep"; delayMs: number; until?: undefined }
  | { kind: "sleep"; until: Date; delayMs?: undefined }
  | { kind: "signal"; signal: string; timeoutMs: number | null };

export const EPISODE_WAIT_KINDS = ["sleep", "signal"] as const;
export type EpisodeWaitKind = (typeof EPISODE_WAIT_KINDS)[number];

/**
 * An episode's current (or last) wait, `cyclium_episode_waits`: `wakeAt` is when a sleep ends or
 * a signal wait times out (null: only the signal wakes it); `wokenAt` is set once it resumed.
 */
export type EpisodeWait = Narrow<FieldsOf<EpisodeWaitModel>, { kind: EpisodeWaitKind }>;
export type EpisodeWaitRow = Narrow<RowOf<EpisodeWaitModel>, { kind: EpisodeWaitKind }>;

export const EPISODE_WAIT_COLUMNS =
  "episode_id, kind, signal, step_no, attempt, wall_used_ms, since, wake_at, woken_at";

export function toEpisodeWait(row: EpisodeWaitRow): EpisodeWait {
  return {
    episodeId: row.episode_id,
    kind: row.kind,
    signal: row.signal,
    stepNo: row.step_no,
    attempt: row.attempt,
    wallUsedMs: row.wall_used_ms,
    since: row.since,
    wakeAt: row.wake_at,
    wokenAt: row.woken_at,
  };
}
