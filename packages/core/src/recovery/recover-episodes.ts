import { acquireClaimsInBulk, failClaimsInBulk, type WorkClaims } from "../claims/index";
import { withTransaction, type Connectable, type Queryable } from "../db/index";
import type { Logger } from "../telemetry/index";
import { claimEpisodesForRecovery } from "./claim-episodes-for-recovery";
import { failOrphanedEpisodes } from "./fail-orphaned-episodes";
import type { OrphanedEpisode, RecoveryPolicy } from "../actors/recovery-policy";
import { releaseRecoveryClaims } from "./release-recovery-claims";
import type { RecoveryDecision } from "./resolve-recovery-policies";
import { restartRecoveredEpisodes } from "./restart-recovered-episodes";

export interface RecoveredEpisode extends OrphanedEpisode {
  policy: RecoveryPolicy;
  outcome: "restarted" | "failed";
}

/** The work-claim gate: present when claims are configured (not passthrough). */
export interface ClaimGate {
  claims: WorkClaims;
  leaseSeconds: number;
  claimKeyFor: (episode: OrphanedEpisode) => string;
}

export interface RecoverBatchOptions {
  db: Queryable & Connectable;
  node: string;
  episodes: readonly OrphanedEpisode[];
  decisions: ReadonlyMap<string, RecoveryDecision>;
  gate: ClaimGate | null;
  /** Restarted episodes join this node's queue (`queued_by`); null: trigger requests instead. */
  queueOwner: string | null;
  logger: Logger;
}

/**
 * Recovers one batch of orphans in one transaction:
 *
 * 1. the recovery claim for the whole batch, one statement (see claim-episodes-for-recovery.ts);
 * 2. with claims configured, the work claims of the orphans won, one `acquireMany` for the batch
 *    (an adapter without it: `acquire` per orphan), with the single acquire's rules (a lapsed
 *    claim is stolen at attempt + 1, steals + 1): busy means its owner is alive and renewing, so
 *    it is no orphan, and its recovery claim is given back in the same transaction;
 * 3. the policies, one statement per policy;
 * 4. the work claims released (`failed`) at the attempt acquired, one `failMany`, so the restarted
 *    run can acquire them.
 *
 * Both gates must pass and the transaction makes them one step, so their order inside it is
 * free. The recovery claim goes first because it is the cheap test that partitions the orphans
 * between sweeping nodes without waiting (SKIP LOCKED): a node only ever touches the work claims
 * of orphans it already won. The transaction also hides the winner's brief hold of the work
 * claim; were it visible, a restarted run could find its own claim busy in that window and leave
 * the episode pending for good. And no orphan is left `recovering` by a node that died between
 * claim and policy.
 *
 * Four to six statements per batch whatever its size: 10,000 orphans with work claims took one
 * node 2.1 s instead of 18.3 s with a statement per orphan (docs/benchmarks.md, "Recovery sweep").
 */
export async function recoverBatch(options: RecoverBatchOptions): Promise<RecoveredEpisode[]> {
  const byId = new Map(options.episodes.map((episode) => [episode.id, episode]));
  try {
    return await withTransaction(options.db, async (tx) => {
      const won = await claimEpisodesForRecovery([...byId.keys()], tx);
      let claimed = won.flatMap((claim) => {
        const episode = byId.get(claim.id);
        return episode ? [{ claim, episode, attempt: null as number | null }] : [];
      });
      const gate = options.gate;
      if (gate) {
        // Unarchived dedupe keys are unique, but a custom claimKeyFor may map two orphans to one
        // key: the second is busy, as its one-by-one acquire after the first would have been.
        const keys = claimed.map((entry) => gate.claimKeyFor(entry.episode));
        const firsts = claimed.filter((_, index) => keys.indexOf(keys[index] as string) === index);
        const answers = await acquireClaimsInBulk(
          gate.claims,
          {
            dedupeKeys: firsts.map((entry) => gate.claimKeyFor(entry.episode)),
            owner: options.node,
            leaseSeconds: gate.leaseSeconds,
          },
          tx,
        );
        firsts.forEach((entry, index) => {
          const answer = answers[index];
          if (answer?.ok) entry.attempt = answer.attempt;
        });
        const busy = claimed.filter((entry) => entry.attempt === null).map((entry) => entry.claim);
        await releaseRecoveryClaims(busy, tx);
        claimed = claimed.filter((entry) => entry.attempt !== null);
      }
      const recovered = await applyDecisions(
        tx,
        options.node,
        options.queueOwner,
        claimed.map((entry) => entry.episode),
        options.decisions,
      );
      if (gate) {
        await failClaimsInBulk(
          gate.claims,
          {
            owner: options.node,
            claims: claimed.map((entry) => {
              const decision = options.decisions.get(entry.episode.id);
              const outcome = decision?.policy === "restart" ? "restarted" : "orphaned";
              return {
                dedupeKey: gate.claimKeyFor(entry.episode),
                attempt: entry.attempt ?? undefined,
                errorDetail: `recovered by ${options.node}: ${outcome}`,
              };
            }),
          },
          tx,
        );
      }
      return recovered;
    });
  } catch (error) {
    // A lost connection or a deadlock with a runner finishing one of these episodes: nothing
    // was committed, so the next sweep sees the whole batch again.
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
  queueOwner: string | null,
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
  await restartRecoveredEpisodes(
    { episodeIds: restart.map((episode) => episode.id), node, queueOwner },
    tx,
  );
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
