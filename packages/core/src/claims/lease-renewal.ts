import type { Logger } from "../telemetry/index";
import type { KeptClaim } from "./kept-claim";
import type { RenewClaimResult, WorkClaims } from "./work-claims";

export interface LeaseRenewalOptions {
  claims: WorkClaims;
  owner: string;
  leaseSeconds: number;
  logger: Logger;
}

/** Told each claim's answer as it arrives (an answer may come after the round timed out). */
export type OnRenewAnswer = (claim: KeptClaim, result: RenewClaimResult) => void;

const RENEWED: RenewClaimResult = { ok: true };
const NOT_OWNER: RenewClaimResult = { ok: false, error: "not_owner" };

/**
 * One round of renewals for the claims of a keeper: `renewMany` when the adapter has it (one
 * statement with postgres claims), else `renew` per claim, all at once. `failed` when a renewal
 * threw (the keeper retries the round soon); rejects only on an answer it cannot read.
 */
export async function renewLeases(
  options: LeaseRenewalOptions,
  batch: readonly KeptClaim[],
  onAnswer: OnRenewAnswer,
): Promise<"ok" | "failed"> {
  const { claims } = options;
  return claims.renewMany === undefined
    ? renewEach(options, batch, onAnswer)
    : renewMany(claims.renewMany.bind(claims), options, batch, onAnswer);
}

async function renewMany(
  send: NonNullable<WorkClaims["renewMany"]>,
  options: LeaseRenewalOptions,
  batch: readonly KeptClaim[],
  onAnswer: OnRenewAnswer,
): Promise<"ok" | "failed"> {
  const { owner, leaseSeconds, logger } = options;
  let renewed: Map<string, number>;
  try {
    const answer = await send({
      owner,
      leaseSeconds,
      claims: batch.map(({ dedupeKey, attempt }) => ({ dedupeKey, attempt })),
    });
    renewed = new Map(answer.renewed.map((claim) => [claim.dedupeKey, claim.attempt]));
  } catch (error) {
    logger.warn(
      { err: error, owner_node: owner, claims: batch.length },
      "claim renew failed; retrying",
    );
    return "failed";
  }
  for (const claim of batch) {
    const attempt = renewed.get(claim.dedupeKey);
    const kept = attempt !== undefined && (claim.attempt ?? attempt) === attempt;
    onAnswer(claim, kept ? RENEWED : NOT_OWNER);
  }
  return "ok";
}

async function renewEach(
  options: LeaseRenewalOptions,
  batch: readonly KeptClaim[],
  onAnswer: OnRenewAnswer,
): Promise<"ok" | "failed"> {
  const { claims, owner, leaseSeconds, logger } = options;
  let failed = false;
  await Promise.all(
    batch.map(async (claim) => {
      let result: RenewClaimResult;
      try {
        result = await claims.renew({
          dedupeKey: claim.dedupeKey,
          owner,
          leaseSeconds,
          ...(claim.attempt === undefined ? {} : { attempt: claim.attempt }),
        });
      } catch (error) {
        failed = true;
        logger.warn({ err: error, ...claim.meta(owner) }, "claim renew failed; retrying");
        return;
      }
      onAnswer(claim, result);
    }),
  );
  return failed ? "failed" : "ok";
}
