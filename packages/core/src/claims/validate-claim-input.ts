import { CycliumError } from "../errors/index";
import { MAX_NODE_IDENTITY_LENGTH } from "../scope/index";
import { MAX_DEDUPE_KEY_LENGTH } from "./work-claims";

/**
 * Rejects input the table would refuse anyway, with a message that names the problem instead of
 * PostgreSQL's "value too long for type character varying(512)".
 */
export function validateClaimInput(input: {
  dedupeKey: string;
  owner: string;
  leaseSeconds?: number;
}): void {
  if (input.dedupeKey.length === 0 || input.dedupeKey.length > MAX_DEDUPE_KEY_LENGTH) {
    throw new CycliumError(
      "invalid_input",
      `dedupe key must be 1..${MAX_DEDUPE_KEY_LENGTH} characters (got ${input.dedupeKey.length})`,
    );
  }
  if (input.owner.length === 0 || input.owner.length > MAX_NODE_IDENTITY_LENGTH) {
    throw new CycliumError(
      "invalid_input",
      `owner must be 1..${MAX_NODE_IDENTITY_LENGTH} characters (got ${input.owner.length})`,
    );
  }
  if (
    input.leaseSeconds !== undefined &&
    (!Number.isFinite(input.leaseSeconds) || input.leaseSeconds <= 0)
  ) {
    throw new CycliumError("invalid_input", `lease must be a positive number of seconds`);
  }
}

/** `reclaimExpired`'s batch bound: a positive whole number, so one call cannot sweep unbounded. */
export function validateReclaimLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit <= 0) {
    throw new CycliumError(
      "invalid_input",
      `reclaim limit must be a positive integer (got ${limit})`,
    );
  }
}

/** A batch call names each key once: a repeated key rejects, so no answer depends on order. */
export function validateDistinctKeys(keys: readonly string[]): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) {
      throw new CycliumError("invalid_input", `dedupe key ${key} appears twice in one batch`);
    }
    seen.add(key);
  }
}
