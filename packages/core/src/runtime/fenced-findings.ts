import type { AnnounceOptions } from "../bus/index";
import type { ClaimFence } from "../claims/index";
import { withTransaction, type Connectable, type Queryable } from "../db/index";
import type { Episode } from "../episodes/index";
import { fenceCte } from "../episodes/fence-cte";
import {
  announceFinding,
  clearFinding,
  raiseFinding,
  type FencedFindingResult,
  type StrategyFindingInput,
} from "../findings/index";

export type { FencedFindingResult, StrategyFindingInput };

/**
 * Locks the claim row FOR SHARE and runs `write` in the same transaction, only while the claim is
 * still this run's (SPEC 12, "fence before side effects"): a steal has to wait for the commit, so
 * a zombie's finding can never land after the new owner took over.
 */
async function fenced<T>(
  fence: ClaimFence | null,
  db: Queryable & Connectable,
  write: (tx: Queryable) => Promise<T>,
): Promise<{ kind: "fenced" } | { kind: "held"; value: T }> {
  if (fence === null) return { kind: "held", value: await write(db) };
  return withTransaction(db, async (tx) => {
    const cte = fenceCte(fence, 1);
    const check = await tx.query<{ held: boolean }>(
      `WITH ${cte.sql} SELECT EXISTS (SELECT 1 FROM fence) AS held`,
      cte.values,
    );
    if (check.rows[0]?.held !== true) return { kind: "fenced" as const };
    return { kind: "held" as const, value: await write(tx) };
  });
}

export async function raiseFindingFenced(
  options: {
    episode: Episode;
    fence: ClaimFence | null;
    finding: StrategyFindingInput;
    /** Where `finding.raised` goes once the write committed. */
    announce?: AnnounceOptions | undefined;
  },
  db: Queryable & Connectable,
): Promise<FencedFindingResult> {
  const { episode } = options;
  const result = await fenced(options.fence, db, (tx) =>
    raiseFinding(
      {
        ...options.finding,
        episode: { id: episode.id, actorId: episode.actorId, sourceEnv: episode.sourceEnv },
      },
      tx,
    ),
  );
  if (result.kind === "fenced") return result;
  if (options.announce) await announceFinding(options.announce, "raised", result.value.finding);
  return { kind: "written", finding: result.value.finding };
}

export async function clearFindingFenced(
  options: {
    episode: Episode;
    fence: ClaimFence | null;
    findingKey: string;
    announce?: AnnounceOptions | undefined;
  },
  db: Queryable & Connectable,
): Promise<FencedFindingResult> {
  const result = await fenced(options.fence, db, (tx) =>
    clearFinding({ findingKey: options.findingKey, env: options.episode.sourceEnv }, tx),
  );
  if (result.kind === "fenced") return result;
  if (result.value.kind === "not_found") return { kind: "not_found" };
  if (options.announce) await announceFinding(options.announce, "cleared", result.value.finding);
  return { kind: "written", finding: result.value.finding };
}
