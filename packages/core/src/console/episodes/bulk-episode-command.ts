import type { Bus } from "../../bus/types";
import { withTransaction, type Connectable } from "../../db/index";
import { assertNever } from "../../errors/index";
import type { Logger } from "../../telemetry/index";
import type { EpisodeStatus } from "../../episodes/episode-row";
import { countEpisodes, type EpisodeCount } from "./count-episodes";
import type { EpisodeListFilters } from "./episode-filter";
import { listEpisodes } from "./list-episodes";
import { archiveEpisodes, cancelEpisodes, type EpisodeCommandResult } from "../../episodes/index";
import { retryEpisodes } from "../../retries/index";

/** An operator command over every episode a filter matches, with what it needs. */
export type BulkEpisodeCommand =
  | { kind: "retry"; by: string; sourceNode: string }
  | { kind: "cancel"; reason: string; bus?: Pick<Bus, "publish"> | undefined; logger?: Logger }
  | { kind: "archive" };

export type BulkEpisodeCommandKind = BulkEpisodeCommand["kind"];

/**
 * The statuses a command can change (the single commands' rules): anything else a filter
 * matches is left out of the walk, not locked and refused one by one.
 */
export const BULK_ELIGIBLE_STATUSES: Record<BulkEpisodeCommandKind, readonly EpisodeStatus[]> = {
  retry: ["failed", "cancelled"],
  cancel: ["pending", "running", "waiting"],
  archive: ["completed", "failed", "cancelled"],
};

/**
 * 500 ids per transaction: one batch of retries (lock, update, trigger requests, wake-up) takes
 * ~0.1-0.3 s, so no transaction holds its row locks long and no statement nears a timeout, however
 * many episodes match (the 10,000-episode test's time is in docs/console-search.md).
 */
export const BULK_BATCH_SIZE = 500;

/** What a bulk command did, per item: changed, found changed since it was selected, or gone. */
export interface BulkEpisodeCommandOutcome {
  kind: "done";
  command: BulkEpisodeCommandKind;
  /** Episodes the walk selected (matching the filter and in an eligible status when read). */
  matched: number;
  /** Retried, cancelled or archived. */
  changed: number;
  /** Another command or the runtime changed its status between the walk and the lock. */
  conflict: number;
  /** Deleted (pruned) between the walk and the lock. */
  notFound: number;
  batches: number;
}

export interface RunBulkEpisodeCommandOptions {
  command: BulkEpisodeCommand;
  filters: EpisodeListFilters;
  batchSize?: number | undefined;
  /** Called after each committed batch with the totals so far (progress, or what an error left). */
  onBatch?: ((progress: BulkEpisodeCommandOutcome) => void) | undefined;
}

/** The filters of each eligible status the filter allows: one index walk per status. */
function eligibleWalks(
  kind: BulkEpisodeCommandKind,
  filters: EpisodeListFilters,
): EpisodeListFilters[] {
  // An archived episode is never eligible: retry and archive refuse it, and it cannot be live.
  if (filters.archived === true) return [];
  return BULK_ELIGIBLE_STATUSES[kind]
    .filter((status) => filters.status === undefined || filters.status === status)
    .map((status) => ({ ...filters, status, archived: false }));
}

async function runOnIds(
  command: BulkEpisodeCommand,
  episodeIds: string[],
  tx: Parameters<typeof retryEpisodes>[1],
): Promise<EpisodeCommandResult<"retried" | "cancelled" | "archived">[]> {
  switch (command.kind) {
    case "retry":
      return retryEpisodes({ episodeIds, by: command.by, sourceNode: command.sourceNode }, tx);
    case "cancel":
      return cancelEpisodes(
        { episodeIds, reason: command.reason, bus: command.bus, logger: command.logger },
        tx,
      );
    case "archive":
      return archiveEpisodes({ episodeIds }, tx);
    default:
      return assertNever(command);
  }
}

/**
 * Runs retry, cancel or archive on every episode the filter matches, in batches of `batchSize`,
 * one transaction each, walking newest first by keyset on (inserted_at, id) per eligible status.
 * Episodes created after the walk started are newer than its cursor and are left alone. Each
 * batch is the single command's statement over its ids, so the same rules hold under the lock
 * and the same events are published (cancel: `episode.cancelled` on `bus`, on commit).
 * A failure stops the walk; the batches before it stay committed (`onBatch` saw their totals).
 */
export async function runBulkEpisodeCommand(
  options: RunBulkEpisodeCommandOptions,
  db: Connectable,
): Promise<BulkEpisodeCommandOutcome> {
  const { command } = options;
  const batchSize = options.batchSize ?? BULK_BATCH_SIZE;
  const outcome: BulkEpisodeCommandOutcome = {
    kind: "done",
    command: command.kind,
    matched: 0,
    changed: 0,
    conflict: 0,
    notFound: 0,
    batches: 0,
  };
  for (const filters of eligibleWalks(command.kind, options.filters)) {
    let cursor: string | undefined;
    do {
      cursor = await withTransaction(db, async (tx) => {
        const page = await listEpisodes({ db: tx, filters, cursor, limit: batchSize });
        const results = await runOnIds(
          command,
          page.items.map((item) => item.id),
          tx,
        );
        outcome.matched += results.length;
        for (const result of results) {
          if (result.kind === "not_found") outcome.notFound += 1;
          else if (result.kind === "conflict") outcome.conflict += 1;
          else outcome.changed += 1;
        }
        return page.page.olderCursor ?? undefined;
      });
      outcome.batches += 1;
      options.onBatch?.({ ...outcome });
    } while (cursor !== undefined);
  }
  return outcome;
}

/**
 * What a bulk command would be run on: the episodes the filter matches that are in an eligible
 * status now, counted as `countEpisodes` counts (exact up to its bound, else estimated).
 */
export async function previewBulkEpisodeCommand(options: {
  db: Parameters<typeof countEpisodes>[0]["db"];
  command: BulkEpisodeCommandKind;
  filters: EpisodeListFilters;
}): Promise<EpisodeCount> {
  const counts = await Promise.all(
    eligibleWalks(options.command, options.filters).map((filters) =>
      countEpisodes({ db: options.db, filters }),
    ),
  );
  const count = counts.reduce((sum, c) => sum + c.count, 0);
  const estimated = counts.find((c) => c.kind === "estimated");
  return estimated === undefined
    ? { kind: "exact", count }
    : { kind: "estimated", count, exactUpTo: estimated.exactUpTo };
}
