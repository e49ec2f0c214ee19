import { claimKeySql } from "../../claims/claim-key";
import type { Queryable } from "../../db/index";
import { episodeColumns, type EpisodeRow } from "../episode-row";
import { resultsInOrder, splitChanged, type ArchiveEpisodeResult } from "./episode-command-result";

export interface ArchiveEpisodesOptions {
  episodeIds: readonly string[];
}

export interface ArchiveEpisodeOptions {
  episodeId: string;
}

// One statement for any number of episodes: a finished, unarchived episode is archived, which
// frees its dedupe key (SPEC section 3). It is out of every queue, and a claim still `claimed`
// under its key (a zombie run) is failed so that run is aborted. Rows locked in id order.
const SQL = `
WITH locked AS (
  SELECT ${episodeColumns()} FROM cyclium_episodes
   WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE
), archived AS (
  UPDATE cyclium_episodes e
     SET archived_at = now(), queued_by = NULL, queued_at = NULL, lease_until = NULL,
         updated_at = now()
    FROM locked
   WHERE e.id = locked.id AND locked.archived_at IS NULL
     AND locked.status NOT IN ('pending', 'running', 'waiting')
  RETURNING ${episodeColumns("e")}
), claim AS (
  UPDATE cyclium_work_claims c
     SET state = 'failed', error_detail = 'episode archived', updated_at = now()
    FROM archived
   WHERE c.dedupe_key = ${claimKeySql("archived")} AND c.state = 'claimed'
  RETURNING c.id
)
SELECT ${episodeColumns()}, true AS changed FROM archived
UNION ALL
SELECT ${episodeColumns("l")}, false AS changed FROM locked l
 WHERE NOT EXISTS (SELECT 1 FROM archived a WHERE a.id = l.id)`;

/**
 * Hides finished episodes from the lists and frees their dedupe keys: an archived episode no
 * longer blocks the same trigger from creating a new one. One result per id (`archived`,
 * `conflict` when pending, running or already archived, `not_found`).
 */
export async function archiveEpisodes(
  options: ArchiveEpisodesOptions,
  db: Queryable,
): Promise<ArchiveEpisodeResult[]> {
  if (options.episodeIds.length === 0) return [];
  const { rows } = await db.query<EpisodeRow & { changed: boolean }>(SQL, [options.episodeIds]);
  const { changed, unchanged } = splitChanged(rows);
  return resultsInOrder("archived", options.episodeIds, changed, unchanged);
}

/** `archiveEpisodes` for one episode. */
export async function archiveEpisode(
  options: ArchiveEpisodeOptions,
  db: Queryable,
): Promise<ArchiveEpisodeResult> {
  const [result] = await archiveEpisodes({ episodeIds: [options.episodeId] }, db);
  return result ?? { kind: "not_found", episodeId: options.episodeId };
}
