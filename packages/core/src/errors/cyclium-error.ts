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

/** The one error type for expected failures; `message` is meant to be shown to a user. */
export class CycliumError extends Error {
  override readonly name = "CycliumError";
  readonly code: CycliumErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: CycliumErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }
}

export function isCycliumError(error: unknown, code?: CycliumErrorCode): error is CycliumError {
  return error instanceof CycliumError && (code === undefined || error.code === code);
}
