import type { Bus } from "../bus/index";
import { runWithClaim, type WorkClaims } from "../claims/index";
import { announceFinding } from "./announce-finding";
import type { Queryable } from "../db/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { clearExpiredFindings } from "./clear-expired-findings";
import type { Finding } from "./finding-row";

/** The one claim every node's sweep competes for: one sweep at a time cluster-wide. */
export const FINDINGS_EXPIRY_CLAIM_KEY = "findings:expiry_sweep";

export interface SweepExpiredFindingsOptions {
  claims: WorkClaims;
  owner: string;
  leaseSeconds: number;
  /** Findings cleared per statement; the sweep repeats until a batch comes back short. */
  batchSize?: number;
  logger: Logger;
  telemetry: Telemetry;
  /** Where each cleared finding's `finding.expired` is published (telemetry only without). */
  bus?: Pick<Bus, "publish"> | undefined;
}

export type SweepExpiredFindingsResult = { kind: "busy" } | { kind: "swept"; cleared: Finding[] };

const DEFAULT_BATCH = 500;

/**
 * The expiry sweep (SPEC 12): clears active findings whose `expires_at` passed, under a work
 * claim so one node sweeps at a time. Exactly-once does not rest on the claim alone: each row
 * moves from active to cleared in one statement that locks it, so even a sweep that outlived its
 * lease cannot clear a finding twice.
 */
export async function sweepExpiredFindings(
  options: SweepExpiredFindingsOptions,
  db: Queryable,
): Promise<SweepExpiredFindingsResult> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const outcome = await runWithClaim(
    {
      claims: options.claims,
      dedupeKey: FINDINGS_EXPIRY_CLAIM_KEY,
      owner: options.owner,
      leaseSeconds: options.leaseSeconds,
      logger: options.logger,
    },
    async (claimed) => {
      const cleared: Finding[] = [];
      for (;;) {
        if (claimed.signal.aborted) break;
        const batch = await clearExpiredFindings({ limit: batchSize }, db);
        cleared.push(...batch);
        if (batch.length < batchSize) break;
      }
      return cleared;
    },
  );
  if (outcome.kind === "busy") return { kind: "busy" };
  const cleared = outcome.value;
  if (cleared.length > 0) {
    options.telemetry.emit("cyclium.findings.expired", { count: cleared.length });
    const { bus, telemetry, logger } = options;
    await Promise.all(
      cleared.map((finding) => announceFinding({ bus, telemetry, logger }, "expired", finding)),
    );
    options.logger.info({ cleared: cleared.length }, "expired findings cleared");
  }
  return { kind: "swept", cleared };
}
