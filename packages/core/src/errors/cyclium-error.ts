import { redactSecrets } from "./redact-secrets";

/**
 * Codes of expected failures. Busy, not-owner, duplicates and fenced writes are usually returned
 * as values; these codes exist for the places that must throw or abort (an AbortSignal's reason,
 * invalid configuration) and for the one place that maps them to tRPC/HTTP errors.
 */
export const CYCLIUM_ERROR_CODES = [
  "invalid_input",
  "invalid_config",
  "not_found",
  "conflict",
  "busy",
  "not_owner",
  "fenced",
  "lease_lost",
  "lease_lapsed",
  "shutdown",
] as const;

export type CycliumErrorCode = (typeof CYCLIUM_ERROR_CODES)[number];

/**
 * Marks a CycliumError across copies of core: a bundler can load core twice (the console bundles
 * its sources and the deployment's own import of core), and `instanceof` then fails across them.
 */
const CYCLIUM_ERROR_BRAND: unique symbol = Symbol.for("cyclium.error") as never;

/** The one error type for expected failures; `message` is meant to be shown to a user. */
export class CycliumError extends Error {
  readonly [CYCLIUM_ERROR_BRAND] = true;
  override readonly name = "CycliumError";
  readonly code: CycliumErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: CycliumErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    // Shown to users and logged: a connection string in it never carries its password.
    super(
      redactSecrets(message),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.details = options.details;
  }
}

export function isCycliumError(error: unknown, code?: CycliumErrorCode): error is CycliumError {
  const branded =
    error instanceof CycliumError ||
    (error instanceof Error && (error as Partial<CycliumError>)[CYCLIUM_ERROR_BRAND] === true);
  return branded && (code === undefined || (error as CycliumError).code === code);
}
