import { isCycliumError } from "@cyclium/core/console";

/** A field-level problem of an input, as the console's forms show it beside the field. */
export interface TInputIssue {
  path: string;
  message: string;
}

/**
 * The field issues an `invalid_input` CycliumError carries in `details.issues` (fire and retry
 * with edited input, checked against the expectation's schema), for the error's `data` so the
 * form can put each message beside its field. Null for any other error.
 */
export function inputIssuesOf(cause: unknown): TInputIssue[] | null {
  if (!isCycliumError(cause) || cause.code !== "invalid_input") return null;
  const issues = cause.details?.issues;
  if (!Array.isArray(issues)) return null;
  return issues.flatMap((issue: unknown) => {
    if (typeof issue !== "object" || issue === null) return [];
    const { path, message } = issue as Record<string, unknown>;
    return typeof path === "string" && typeof message === "string" ? [{ path, message }] : [];
  });
}

/** `path: message` lines, the way an invalid input reads in a message. */
export function describeInputIssues(issues: readonly TInputIssue[]): string {
  return issues
    .map((issue) => `${issue.path === "" ? "(input)" : issue.path}: ${issue.message}`)
    .join("; ");
}
