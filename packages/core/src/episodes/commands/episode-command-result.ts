import { toEpisode, type Episode, type EpisodeRow } from "../episode-row";

/**
 * What an operator command (cancel, retry, archive) did to one episode. Expected outcomes are
 * values, told apart by `kind`: `not_found` (no such episode) and `conflict` (its status does not
 * allow the command: `episode` is how it was found, so the caller can say why) are not thrown.
 */
export type EpisodeCommandResult<K extends "cancelled" | "retried" | "archived"> =
  | { kind: K; episodeId: string; episode: Episode }
  | { kind: "not_found"; episodeId: string }
  | { kind: "conflict"; episodeId: string; episode: Episode };

export type CancelEpisodeResult = EpisodeCommandResult<"cancelled">;
export type RetryEpisodeResult = EpisodeCommandResult<"retried">;
export type ArchiveEpisodeResult = EpisodeCommandResult<"archived">;

/**
 * One result per requested id, in the order asked (a repeated id answers twice), from the rows a
 * bulk statement changed and the rows it found but left alone.
 */
export function resultsInOrder<K extends "cancelled" | "retried" | "archived">(
  kind: K,
  episodeIds: readonly string[],
  changed: ReadonlyMap<string, Episode>,
  unchanged: ReadonlyMap<string, Episode>,
): EpisodeCommandResult<K>[] {
  return episodeIds.map((episodeId): EpisodeCommandResult<K> => {
    // PostgreSQL returns uuids in lower case, whatever case they were asked in.
    const id = episodeId.toLowerCase();
    const done = changed.get(id);
    if (done !== undefined) return { kind, episodeId, episode: done };
    const found = unchanged.get(id);
    if (found !== undefined) return { kind: "conflict", episodeId, episode: found };
    return { kind: "not_found", episodeId };
  });
}

/** Splits `RETURNING …, changed` rows into the two maps `resultsInOrder` reads. */
export function splitChanged(rows: readonly (EpisodeRow & { changed: boolean })[]): {
  changed: Map<string, Episode>;
  unchanged: Map<string, Episode>;
} {
  const changed = new Map<string, Episode>();
  const unchanged = new Map<string, Episode>();
  for (const row of rows) (row.changed ? changed : unchanged).set(row.id, toEpisode(row));
  return { changed, unchanged };
}
