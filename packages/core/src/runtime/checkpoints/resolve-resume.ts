import type { AnyStrategy } from "../../actors/index";
import type { ClaimFence } from "../../claims/index";
import type { Queryable } from "../../db/index";
import { fenceCte } from "../../episodes/fence-cte";
import type { Logger } from "../../telemetry/index";
import { loadNewestCheckpoint } from "./list-checkpoints";

/** Where a resumed run picks up: the state of checkpoint `number`, then step `number + 1`. */
export interface ResumePoint {
  checkpointNumber: number;
  phase: string;
  state: unknown;
}

export interface ResolveResumeOptions {
  episodeId: string;
  strategy: AnyStrategy;
  fence: ClaimFence | null;
  nodeIdentity: string;
  attempt: number;
  logger: Logger;
  /** After a wait (SPEC 17) the resume is the plan, not a recovery: not written to its history. */
  afterWait?: boolean;
}

/** The version a strategy writes; 1 when it declares none (the column's default). */
export function checkpointVersionOf(strategy: AnyStrategy): number {
  return strategy.checkpointVersion ?? 1;
}

/**
 * For a restarted episode: the newest checkpoint, migrated to the strategy's version when it was
 * written by another one. A checkpoint that cannot be migrated (no `migrateCheckpoint`, or it
 * returns undefined or throws) is skipped and the run starts from `init`: rerunning work is
 * recoverable, resuming from a state the code no longer understands is not. Either way the
 * decision goes to `recovery_history`, so the console shows what the recovery resumed from.
 */
export async function resolveResume(
  options: ResolveResumeOptions,
  db: Queryable,
): Promise<ResumePoint | undefined> {
  const checkpoint = await loadNewestCheckpoint(options.episodeId, db);
  if (checkpoint === undefined) return undefined;
  const wanted = checkpointVersionOf(options.strategy);
  const base = {
    node: options.nodeIdentity,
    attempt: options.attempt,
    checkpoint: checkpoint.number,
    phase: checkpoint.phase,
    schema_version: checkpoint.schemaVersion,
  };
  let state: unknown = checkpoint.state;
  let reason: string | undefined;
  if (checkpoint.schemaVersion !== wanted) {
    const migrate = options.strategy.migrateCheckpoint?.bind(options.strategy);
    if (migrate === undefined) {
      reason = `checkpoint schema version ${checkpoint.schemaVersion} differs from the strategy's ${wanted} and the strategy has no migrateCheckpoint`;
    } else {
      try {
        state = await migrate(checkpoint.state, checkpoint.schemaVersion);
        if (state === undefined) {
          reason = `migrateCheckpoint cannot migrate version ${checkpoint.schemaVersion} to ${wanted}`;
        }
      } catch (error) {
        reason = `migrateCheckpoint threw: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  }
  const entry =
    reason === undefined
      ? { ...base, outcome: "resumed_from_checkpoint", migrated_to: wanted }
      : { ...base, outcome: "checkpoint_discarded", reason };
  if (options.afterWait !== true || reason !== undefined) {
    await appendRecoveryHistory(options.episodeId, options.fence, entry, db);
  }
  if (options.afterWait === true && reason === undefined) {
    options.logger.debug(
      { episode_id: options.episodeId, ...entry },
      "episode resumed after a wait",
    );
  } else {
    options.logger.info({ episode_id: options.episodeId, ...entry }, "restarted episode resume");
  }
  if (reason !== undefined) return undefined;
  return { checkpointNumber: checkpoint.number, phase: checkpoint.phase, state };
}

async function appendRecoveryHistory(
  episodeId: string,
  fence: ClaimFence | null,
  entry: Record<string, unknown>,
  db: Queryable,
): Promise<void> {
  const cte = fenceCte(fence, 3);
  await db.query(
    `WITH ${cte.sql}
     UPDATE cyclium_episodes
        SET recovery_history = recovery_history ||
              jsonb_build_array($2::jsonb || jsonb_build_object('at', now())),
            updated_at = now()
      WHERE id = $1 AND EXISTS (SELECT 1 FROM fence)`,
    [episodeId, JSON.stringify(entry), ...cte.values],
  );
}
