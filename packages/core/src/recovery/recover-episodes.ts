import type { WorkClaims } from "../claims/index";
import { withTransaction, type Connectable, type Queryable } from "../db/index";
import type { Logger } from "../telemetry/index";
import { claimEpisodesForRecovery } from "./claim-episodes-for-recovery";
import { failOrphanedEpisodes } from "./fail-orphaned-episodes";
import type { OrphanedEpisode, RecoveryPolicy } from "./recovery-policy";
import type { RecoveryDecision } from "./resolve-recovery-policies";
import { restartRecoveredEpisodes } from "./restart-recovered-episodes";

export interface RecoveredEpisode extends OrphanedEpisode {
  policy: RecoveryPolicy;
  outcome: "restarted" | "failed";
}

/** Thrown inside a recovery transaction to roll back its recovery claim: the owner is alive. */
class OwnerStillAlive extends Error {}

export interface RecoverWithClaimOptions {
  db: Queryable & Connectable;
  node: string;
  claims: WorkClaims;
  leaseSeconds: number;
  claimKey: string;
  episode: OrphanedEpisode;
  decision: RecoveryDecision;
  logger: Logger;
}

/**
 * One orphan under the work-claim gate, in one transaction: take the recovery claim, acquire the
 * episode's work claim (busy means its owner is alive and renewing, so it is no orphan: roll
 * back), apply the policy, release the work claim so the next run can acquire it.
 *
 * Both gates must pass and the transaction makes them one step, so their order inside it is free.
 * The recovery claim goes first because it is the cheap test: with SKIP LOCKED a node that lost
 * the race learns it in one statement without waiting, where a work-claim acquire would wait for
 * the winner's commit, take over the claim it just released, and only then find the episode
 * gone. The transaction also hides the winner's brief hold of the
 * work claim: had it been visible, a restarted run could find its own claim busy in that window
 * and leave the episode pending for good.
 */
export async function recoverWithClaim(
  options: RecoverWithClaimOptions,
): Promise<RecoveredEpisode | null> {
  const { claims, claimKey, episode, node } = options;
  try {
    return await withTransaction(options.db, async (tx) => {
      const won = await claimEpisodesForRecovery([episode.id], tx);
      if (won.length === 0) return null;
      const acquired = await claims.acquire(
        { dedupeKey: claimKey, owner: node, leaseSeconds: options.leaseSeconds },
        tx,
      );
      if (!acquired.ok) throw new OwnerStillAlive();
      const outcome = await applyDecisions(
        tx,
        node,
        [episode],
        new Map([[episode.id, options.decision]]),
      );
      const detail =
        options.decision.policy === "restart"
          ? `recovered by ${node}: restarted`
          : `recovered by ${node}: orphaned`;
      await claims.fail(
        { dedupeKey: claimKey, owner: node, attempt: acquired.attempt, errorDetail: detail },
        tx,
      );
      return outcome[0] ?? null;
    });
  } catch (error) {
    if (error instanceof OwnerStillAlive) return null;
    // A deadlock with a runner finishing the same episode, or a lost connection: the episode is
    // still running and unclaimed, so the next sweep sees it again.
    options.logger.warn({ err: error, episode_id: episode.id }, "recovery of episode failed");
    return null;
  }
}

export interface RecoverBatchOptions {
  db: Queryable & Connectable;
  node: string;
  episodes: readonly OrphanedEpisode[];
  decisions: ReadonlyMap<string, RecoveryDecision>;
  logger: Logger;
}

/**
 * Without a claim gate the recovery claim is the only arbiter, so a whole batch takes it in one
 * statement and applies both policies in two more, all in one transaction: an orphan is never
 * left `recovering` by a node that died between claim and policy. 10,000 orphans are 400
 * transactions of three statements this way, instead of 10,000 of five (see bench/recovery-bench.ts).
 */
export async function recoverBatch(options: RecoverBatchOptions): Promise<RecoveredEpisode[]> {
  try {
    return await withTransaction(options.db, async (tx) => {
      const won = new Set(
        await claimEpisodesForRecovery(
          options.episodes.map((episode) => episode.id),
          tx,
        ),
      );
      const claimed = options.episodes.filter((episode) => won.has(episode.id));
      return applyDecisions(tx, options.node, claimed, options.decisions);
    });
  } catch (error) {
    options.logger.warn(
      { err: error, episodes: options.episodes.length },
      "recovery of a batch failed",
    );
    return [];
  }
}

async function applyDecisions(
  tx: Queryable,
  node: string,
  claimed: readonly OrphanedEpisode[],
  decisions: ReadonlyMap<string, RecoveryDecision>,
): Promise<RecoveredEpisode[]> {
  const restart: OrphanedEpisode[] = [];
  const fail: { episode: OrphanedEpisode; reason: "policy" | "unknown_actor" }[] = [];
  for (const episode of claimed) {
    const decision = decisions.get(episode.id) ?? { policy: "fail", reason: "unknown_actor" };
    if (decision.policy === "restart") restart.push(episode);
    else fail.push({ episode, reason: decision.reason });
  }
  await restartRecoveredEpisodes({ episodeIds: restart.map((episode) => episode.id), node }, tx);
  await failOrphanedEpisodes(
    { episodes: fail.map(({ episode, reason }) => ({ id: episode.id, reason })), node },
    tx,
  );
  return [
    ...restart.map((episode) => ({
      ...episode,
      policy: "restart" as const,
      outcome: "restarted" as const,
    })),
    ...fail.map(({ episode }) => ({
      ...episode,
      policy: "fail" as const,
      outcome: "failed" as const,
    })),
  ];
}
